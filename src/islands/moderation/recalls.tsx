// The console's "Possible recalls" (docs/product.md, "Recall screening"): items whose brand or name
// matched a recall, for a moderator to confirm (the item comes down) or dismiss; decided matches
// are listed below. The matcher never decides alone, so every card says why it was raised.
import type { RecallMatch } from '../../../api/contract.ts';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { formatLongDate, httpUrl } from '../../lib/format.ts';
import { type RecallAction, resolveRecallMatch } from '../../stores/moderation.ts';
import type { ActionDialogProps } from '../dialogs/ActionDialog.tsx';
import { announce } from './announce.ts';
import { When } from './parts.tsx';
import { type Loaded, Loading, Section } from './sections.tsx';

export const recallCardId = (match: RecallMatch) => `recall-match-${match.matchId}`;

/** The matches still waiting for a decision, in the API's order. */
export const openMatches = (matches: RecallMatch[] | undefined) =>
  (matches ?? []).filter((match) => match.status === 'open');

const RECALL_TEXT = {
  confirm: {
    title: 'Confirm this recall?',
    description:
      'The item comes off every list on the site at once (items, featured finds, categories and the home page), and the site republishes so its pages follow.',
    confirm: 'Confirm recall',
  },
  dismiss: {
    title: 'Dismiss this possible recall?',
    description:
      'The item stays listed, and the same item and recall will not be raised again. Say why, for example a different model.',
    confirm: 'Dismiss',
  },
} as const;

/** The confirmation of a decision on one match, and what is said once it is done. */
export function recallDecision(
  moderatorUid: string,
  match: RecallMatch,
  action: RecallAction,
): Omit<ActionDialogProps, 'onClose'> {
  const text = RECALL_TEXT[action];
  const name = match.item.itemName;
  return {
    title: text.title,
    description: text.description,
    confirmLabel: text.confirm,
    reason: action === 'dismiss' ? 'required' : 'optional',
    reasonLabel: action === 'dismiss' ? 'Reason' : 'Note',
    destructive: action === 'confirm',
    onConfirm: async (reason) => {
      const { publish } = await resolveRecallMatch(moderatorUid, match.matchId, action, reason);
      announce(
        moderatorUid,
        action === 'confirm'
          ? `${name} was taken off the site as recalled.${publish ? ' The site is republishing without it.' : ''}`
          : `The possible recall of ${name} was dismissed.`,
      );
    },
  };
}

const dangerButton = 'rounded-lg bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800';
const actionButton =
  'border-sand text-ink hover:bg-sand rounded-lg border bg-white px-3 py-1.5 text-sm font-semibold';

/** A recall's fields as a moderator compares them with the listing. */
function RecallFacts({ recall }: { recall: RecallMatch['recall'] }) {
  const href = httpUrl(recall.url);
  const facts: [string, string][] = [
    ['Recall date', formatLongDate(recall.recallDate) ?? 'Not given'],
    [recall.hazards.length > 1 ? 'Hazards' : 'Hazard', recall.hazards.join(' ') || 'Not given'],
    [recall.remedies.length > 1 ? 'Remedies' : 'Remedy', recall.remedies.join(', ') || 'Not given'],
    [
      recall.products.length > 1 ? 'Products' : 'Product',
      recall.products.map((p) => (p.model ? `${p.name} (model ${p.model})` : p.name)).join('; ') ||
        'Not given',
    ],
  ];
  if (recall.manufacturers.length) facts.push(['Made by', recall.manufacturers.join(', ')]);
  return (
    <div className="bg-cream mt-3 rounded-lg p-3">
      <h4 className="text-ink font-semibold break-words">
        <span className="text-muted font-normal">Recall: </span>
        {recall.title}
      </h4>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-ink font-semibold">{term}</dt>
            <dd className="text-muted break-words max-sm:mb-1">{value}</dd>
          </div>
        ))}
      </dl>
      {href && (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="text-brand-dark mt-2 inline-block text-sm font-semibold underline underline-offset-4"
        >
          Official recall notice<span className="sr-only"> (opens in a new tab)</span>
        </a>
      )}
    </div>
  );
}

/** One open match: the item, the recall, why they matched, and the two decisions. */
function RecallCard({
  match,
  onResolve,
}: {
  match: RecallMatch;
  onResolve: (match: RecallMatch, action: RecallAction) => void;
}) {
  const { item } = match;
  const headingId = `${recallCardId(match)}-heading`;
  return (
    <article
      id={recallCardId(match)}
      aria-labelledby={headingId}
      // Focus comes here when a decision took the card before it away.
      tabIndex={-1}
      className="focus-visible:outline-brand-dark scroll-mt-24 rounded-2xl border border-amber-300 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-start gap-3">
        {item.imageUrl ? (
          <img
            src={item.imageUrl}
            alt={`Listing photo of ${item.itemName}`}
            width={72}
            height={72}
            className="border-sand h-18 w-18 shrink-0 rounded-lg border object-cover"
          />
        ) : (
          <p className="bg-sand text-muted flex h-18 w-18 shrink-0 items-center justify-center rounded-lg text-center text-xs">
            No photo
          </p>
        )}
        <div className="min-w-0">
          <h3 id={headingId} className="text-ink text-lg font-semibold break-words">
            <span className="sr-only">Possible recall: </span>
            {item.itemName}
          </h3>
          <p className="text-muted text-sm break-words">Brand: {item.brand ?? 'not given'}</p>
          <p className="text-muted text-sm">
            Raised <When iso={match.raisedAt} />
          </p>
        </div>
      </div>
      <RecallFacts recall={match.recall} />
      <div className="mt-3">
        <p className="text-ink text-sm font-semibold">Match score {match.score} of 100</p>
        <h4 className="text-ink mt-2 text-sm font-semibold">What matched</h4>
        <ul className="text-ink mt-1 list-disc space-y-0.5 pl-5 text-sm break-words">
          {match.terms.map((term) => (
            <li key={term}>{term}</li>
          ))}
        </ul>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" className={dangerButton} onClick={() => onResolve(match, 'confirm')}>
          Confirm recall
        </button>
        <button type="button" className={actionButton} onClick={() => onResolve(match, 'dismiss')}>
          Dismiss
        </button>
      </div>
    </article>
  );
}

const DECISION_LABELS: Record<RecallAction, string> = {
  confirm: 'Confirmed: taken off the site',
  dismiss: 'Dismissed',
};

const decidedColumns: Column<RecallMatch>[] = [
  {
    head: 'Item',
    cell: ({ item }) => (item.brand ? `${item.itemName} (${item.brand})` : item.itemName),
    className: 'break-words',
  },
  { head: 'Recall', cell: ({ recall }) => recall.title, className: 'break-words' },
  { head: 'Decision', cell: ({ decision }) => (decision ? DECISION_LABELS[decision.action] : '—') },
  { head: 'Why', cell: ({ decision }) => decision?.reason || '—', className: 'break-words' },
  { head: 'Who', cell: ({ decision }) => decision?.byName ?? '—' },
  {
    head: 'When',
    cell: ({ decision }) => <When iso={decision?.at ?? null} />,
    className: 'sm:whitespace-nowrap',
  },
];

export function RecallsSection({
  matches,
  onResolve,
}: {
  matches: Loaded<RecallMatch[]>;
  onResolve: (match: RecallMatch, action: RecallAction) => void;
}) {
  const open = openMatches(matches.data);
  const decided = (matches.data ?? []).filter((match) => match.status !== 'open');
  return (
    <Section id="recalls" title="Possible recalls" count={matches.data && open.length}>
      <p className="text-muted mb-4 text-sm">
        Items whose brand or name matches a recall. Nothing is taken down until you decide: compare the
        listing with the official notice, then confirm the recall or dismiss the match.
      </p>
      {!matches.data ? (
        <Loading what="possible recalls" failed={matches.error !== undefined} />
      ) : (
        <>
          {open.length === 0 ? (
            <p className="text-muted">No possible recall is waiting for a decision.</p>
          ) : (
            <div className="space-y-4">
              {open.map((match) => (
                <RecallCard key={match.matchId} match={match} onResolve={onResolve} />
              ))}
            </div>
          )}
          {decided.length > 0 && (
            <div className="mt-6">
              <DataTable
                caption="Decided possible recalls"
                columns={decidedColumns}
                rows={decided}
                rowKey={(match) => match.matchId}
              />
            </div>
          )}
        </>
      )}
    </Section>
  );
}
