// The body in Markdown with its live preview beside it (stacked on a phone), "Insert image" that
// uploads and puts ![alt](url) where the cursor is, and the word count and reading time readers
// will see.
import { useId, useRef, useState } from 'react';
import { POST_MARKDOWN_MAX, type RenderedMarkdown } from '../../../api/contract/studio.ts';
import { buttons, DialogShell } from '../dialogs/DialogShell.tsx';
import { ImageUpload } from './ImageUpload.tsx';
import { field, label } from './parts.tsx';
import { useLivePreview } from './useLivePreview.ts';

interface Props {
  markdown: string;
  onChange: (markdown: string) => void;
  initial: RenderedMarkdown | null;
}

/** The Markdown of an image, with brackets in its alt text escaped. */
export const imageMarkdown = (alt: string, url: string) => `![${alt.replace(/([[\]\\])/g, '\\$1')}](${url})`;

export function MarkdownField({ markdown, onChange, initial }: Props) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [inserting, setInserting] = useState(false);
  const { rendered, error } = useLivePreview(markdown, initial);

  function insert(text: string) {
    const area = box.current;
    const start = area?.selectionStart ?? markdown.length;
    const end = area?.selectionEnd ?? markdown.length;
    const before = markdown.slice(0, start);
    const block = `${before && !before.endsWith('\n') ? '\n\n' : ''}${text}\n`;
    onChange(before + block + markdown.slice(end));
    const caret = start + block.length;
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(caret, caret);
    });
  }

  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={`${id}-body`} className={label}>
          Body (Markdown)
        </label>
        <button type="button" className={buttons.secondary} onClick={() => setInserting(true)}>
          Insert image
        </button>
      </div>
      <div className="mt-2 grid gap-4 lg:grid-cols-2">
        <textarea
          id={`${id}-body`}
          ref={box}
          value={markdown}
          maxLength={POST_MARKDOWN_MAX}
          rows={20}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={`${id}-counts`}
          className={`${field} mt-0 min-h-80 font-mono text-sm`}
        />
        <section
          aria-labelledby={`${id}-preview`}
          className="border-sand min-h-80 overflow-auto rounded-lg border bg-white p-4"
        >
          <h2 id={`${id}-preview`} className="text-muted text-xs font-semibold tracking-wide uppercase">
            Preview
          </h2>
          {error && (
            <p role="status" className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-950">
              The preview could not be updated: {error}
            </p>
          )}
          <div
            className="prose mt-2"
            // The server renders and sanitizes it exactly as the build does.
            dangerouslySetInnerHTML={{ __html: rendered?.html ?? '' }}
          />
        </section>
      </div>
      <p id={`${id}-counts`} className="text-muted mt-2 text-sm" aria-live="polite">
        {rendered
          ? `${rendered.wordCount} ${rendered.wordCount === 1 ? 'word' : 'words'} · ${rendered.readingTimeMinutes} min read`
          : 'Counting words…'}
      </p>
      {inserting && (
        <DialogShell
          title="Insert an image"
          description="The image goes into the body where the cursor is."
          onClose={() => setInserting(false)}
        >
          <ImageUpload
            submitLabel="Upload and insert"
            onCancel={() => setInserting(false)}
            onUploaded={(image) => {
              setInserting(false);
              insert(imageMarkdown(image.alt, image.url));
            }}
          />
        </DialogShell>
      )}
    </div>
  );
}
