// What changed between two versions of a post, line by line (docs/product.md, "The studio": the
// history and a save that came too late). Added and removed lines say so in words as well as in
// colour, for screen readers and for anyone who cannot tell the colours apart.
import { diffLines, diffWords } from 'diff';
import type { StudioPostFields } from '../../../api/contract/studio.ts';

interface Props {
  before: Pick<StudioPostFields, 'title' | 'markdown'>;
  after: Pick<StudioPostFields, 'title' | 'markdown'>;
  /** Names the two sides: "Revision 3" and "Your text". */
  beforeLabel: string;
  afterLabel: string;
}

const added = 'bg-green-100 text-green-950 no-underline';
const removed = 'bg-red-100 text-red-950 line-through';

export function DiffView({ before, after, beforeLabel, afterLabel }: Props) {
  const titleChanged = before.title !== after.title;
  const parts = diffLines(before.markdown, after.markdown);
  const same = !titleChanged && parts.every((part) => !part.added && !part.removed);
  return (
    <div className="text-sm">
      <p className="text-muted">
        <span className={`${removed} rounded px-1`}>Removed</span> from {beforeLabel},{' '}
        <span className={`${added} rounded px-1`}>added</span> in {afterLabel}.
      </p>
      {same ? (
        <p className="mt-2">The text is the same.</p>
      ) : (
        <>
          {titleChanged && (
            <p className="mt-2">
              Title:{' '}
              {diffWords(before.title, after.title).map((part, i) =>
                part.added ? (
                  <ins key={i} className={added}>
                    <span className="sr-only">added: </span>
                    {part.value}
                  </ins>
                ) : part.removed ? (
                  <del key={i} className={removed}>
                    <span className="sr-only">removed: </span>
                    {part.value}
                  </del>
                ) : (
                  <span key={i}>{part.value}</span>
                ),
              )}
            </p>
          )}
          <pre
            tabIndex={0}
            aria-label={`Changes from ${beforeLabel} to ${afterLabel}`}
            className="border-sand mt-2 max-h-80 overflow-auto rounded-lg border bg-white p-3 font-mono text-xs whitespace-pre-wrap"
          >
            {parts.map((part, i) =>
              part.added ? (
                <ins key={i} className={`${added} block`}>
                  <span className="sr-only">added: </span>
                  {part.value}
                </ins>
              ) : part.removed ? (
                <del key={i} className={`${removed} block`}>
                  <span className="sr-only">removed: </span>
                  {part.value}
                </del>
              ) : (
                <span key={i} className="text-muted block">
                  {part.value}
                </span>
              ),
            )}
          </pre>
        </>
      )}
    </div>
  );
}
