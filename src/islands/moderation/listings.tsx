// The console's "Listings to check" (docs/product.md, "Listing screening"): each listing the
// screening held, with its photos (faces boxed), what held it in plain words with the rule's
// source, and the four decisions. A rule or a model never decides alone, so every card says why
// it is here.
import { useId, useState } from 'react';
import type {
  CheckOutcome,
  ListingDecision,
  ScreenedListing,
  ScreenedPhoto,
  ScreeningCheck,
} from '../../../api/contract/screening.ts';
import { AGE_GROUPS, ITEM_CATEGORIES } from '../../config.ts';
import { ageGroupLabel, conditionLabel, formatPrice, httpUrl } from '../../lib/format.ts';
import { decideOnListing } from '../../stores/listings.ts';
import { ActionDialog, type ActionDialogProps } from '../dialogs/ActionDialog.tsx';
import { announce } from './announce.ts';
import { When } from './parts.tsx';
import { type Loaded, Loading, Section } from './sections.tsx';

/** The card's element id: an item id may hold any character, an id only some. */
export const listingCardId = (listing: Pick<ScreenedListing, 'itemId'>) =>
  `listing-${listing.itemId.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}`)}`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Faces found in every photo of a listing. */
export const faceCount = (listing: ScreenedListing) =>
  listing.screening.photos.reduce((sum, photo) => sum + photo.faces.length, 0);

const CHECK_NAMES: Record<ScreeningCheck, string> = {
  rules: 'Age and condition rules',
  photo: 'Photo check',
  recall: 'Recall check',
};

const OUTCOME_LABELS: Record<CheckOutcome, string> = {
  block: 'would block it',
  flag: 'held it for you',
  note: 'adds a safety note for parents',
  pending: 'still running',
  pass: 'passed',
};

const OUTCOME_BADGES: Record<CheckOutcome, string> = {
  block: 'bg-red-100 text-red-900',
  flag: 'bg-amber-100 text-amber-950',
  note: 'bg-sky-100 text-sky-950',
  pending: 'bg-gray-100 text-gray-800',
  pass: 'bg-gray-100 text-gray-800',
};

/** The age group the rules suggest, from their words ("… List it for 3+ years."), if it is one of ours. */
export function suggestedAgeGroup(listing: ScreenedListing): string | null {
  for (const { reasons } of listing.screening.checks) {
    for (const { text } of reasons) {
      const age = /List it for ([^.]+)\./.exec(text)?.[1]?.trim();
      const known = AGE_GROUPS.find((group) => group.toLowerCase() === age?.toLowerCase());
      if (known) return known;
    }
  }
  return null;
}

/** What the console says once a decision is in, from the state the listing is in now. */
function outcomeSentence(listing: ScreenedListing, decision: ListingDecision): string {
  const name = listing.itemName;
  switch (listing.screening.state) {
    case 'cleared':
      if (decision === 'blur') return `${name} was published with faces blurred.`;
      if (decision === 'reage') return `${name} was moved to ${ageGroupLabel(listing.ageGroup)} and cleared.`;
      return `${name} was cleared: parents see it once the site has republished.`;
    case 'blocked':
      return `${name} was blocked: parents will not see it.`;
    case 'held':
      return `${name} is in ${ageGroupLabel(listing.ageGroup)} now, but another check still holds it.`;
    case 'pending':
      return `${name} is being checked again.`;
  }
}

const DECISION_TEXT: Record<
  Exclude<ListingDecision, 'reage'>,
  { title: string; description: string; confirm: string }
> = {
  clear: {
    title: 'Clear this listing?',
    description:
      'Parents see it on the site, with any safety notes the rules gave it. Clear it only if what held it does not apply.',
    confirm: 'Clear listing',
  },
  block: {
    title: 'Block this listing?',
    description:
      'It is never shown to parents. Say why: the reason is kept in the audit log with your decision.',
    confirm: 'Block listing',
  },
  blur: {
    title: 'Publish with faces blurred?',
    description:
      'Every face found in its photos is blurred in the copies parents see, and the listing is shown. Look at every photo first: the model can miss a face.',
    confirm: 'Publish with faces blurred',
  },
};

// A clear publishes the photos as they are: a moderator is told so when a face was found. A new age
// group answers the rules only, so a face keeps the listing held (api/screening/decide.ts).
const SHOWN_AS_THEY_ARE =
  'Its photos are shown as they are, faces included: to blur the faces, use Publish with faces blurred instead.';

/** The confirmation of a clear, block or blur, and what is said once it is done. */
export function listingDecision(
  moderatorUid: string,
  listing: ScreenedListing,
  decision: Exclude<ListingDecision, 'reage'>,
): Omit<ActionDialogProps, 'onClose'> {
  const text = DECISION_TEXT[decision];
  return {
    title: text.title,
    description:
      decision === 'clear' && faceCount(listing) > 0
        ? `${text.description} ${SHOWN_AS_THEY_ARE}`
        : text.description,
    confirmLabel: text.confirm,
    reason: decision === 'block' ? 'required' : 'optional',
    reasonLabel: decision === 'block' ? 'Reason' : 'Note',
    destructive: decision === 'block',
    onConfirm: async (reason) => {
      const decided = await decideOnListing(moderatorUid, listing.itemId, { decision, reason });
      announce(moderatorUid, outcomeSentence(decided, decision));
    },
  };
}

const select =
  'border-sand text-ink focus:border-brand focus:ring-brand/30 mt-1 block w-full rounded-lg border bg-white px-3 py-2 focus:ring-2 focus:outline-none';

/** Moving a listing to another age group: it is screened again under it, with an optional reason. */
export function ReageDialog({
  moderatorUid,
  listing,
  onClose,
  fallbackFocus,
}: {
  moderatorUid: string;
  listing: ScreenedListing;
  onClose: () => void;
  fallbackFocus: () => HTMLElement | null;
}) {
  const id = useId();
  const [ageGroup, setAgeGroup] = useState<string>(() => suggestedAgeGroup(listing) ?? '');
  const [missing, setMissing] = useState(false);
  return (
    <ActionDialog
      title="Change the age group?"
      description={`${listing.itemName} is listed for ${ageGroupLabel(listing.ageGroup)}. It is checked again under the age group you choose and shown, unless a rule blocks it there${faceCount(listing) > 0 ? ' or its photos hold it: a photo with a face stays held until you clear it or publish it with faces blurred' : ''}.`}
      confirmLabel="Change age group"
      reason="optional"
      reasonLabel="Reason"
      onClose={onClose}
      fallbackFocus={fallbackFocus}
      onConfirm={async (reason) => {
        if (!ageGroup) {
          setMissing(true);
          document.getElementById(`${id}-age`)?.focus();
          throw new Error('Choose the age group the listing belongs in.');
        }
        setMissing(false);
        const decided = await decideOnListing(moderatorUid, listing.itemId, {
          decision: 'reage',
          reason,
          ageGroup,
        });
        announce(moderatorUid, outcomeSentence(decided, 'reage'));
      }}
    >
      <div>
        <label htmlFor={`${id}-age`} className="text-ink text-sm font-medium">
          New age group
        </label>
        <select
          id={`${id}-age`}
          value={ageGroup}
          onChange={(event) => setAgeGroup(event.target.value)}
          required
          aria-invalid={missing || undefined}
          aria-describedby={`${id}-age-hint`}
          className={select}
        >
          <option value="">Choose an age group</option>
          {AGE_GROUPS.map((group) => (
            <option key={group} value={group}>
              {group}
            </option>
          ))}
        </select>
        <p id={`${id}-age-hint`} className="text-muted mt-1 text-xs">
          {suggestedAgeGroup(listing)
            ? `The rules suggest ${suggestedAgeGroup(listing)}.`
            : 'The rules suggest no age group for it.'}
        </p>
      </div>
    </ActionDialog>
  );
}

/** One photo as a moderator checks it: our stored copy, each face found outlined on it. */
function Photo({
  photo,
  name,
  index,
  of,
}: {
  photo: ScreenedPhoto;
  name: string;
  index: number;
  of: number;
}) {
  const alt = `Listing photo of ${name}${of > 1 ? ` (${index + 1} of ${of})` : ''}`;
  const faces =
    photo.state === 'analysed'
      ? photo.faces.length
        ? plural(photo.faces.length, 'face found', 'faces found')
        : 'No faces found'
      : photo.state === 'failed'
        ? 'Could not be checked'
        : 'Still being checked';
  return (
    <figure className="min-w-0">
      {photo.url ? (
        <div className="border-sand relative overflow-hidden rounded-lg border">
          <img src={photo.url} alt={alt} loading="lazy" decoding="async" className="block h-auto w-full" />
          {photo.faces.map((face, i) => (
            <span
              key={i}
              aria-hidden="true"
              data-face-box
              className="absolute rounded-sm border-2 border-yellow-300 shadow-[0_0_0_2px_rgba(0,0,0,0.75)]"
              style={{
                left: `${face.x * 100}%`,
                top: `${face.y * 100}%`,
                width: `${face.width * 100}%`,
                height: `${face.height * 100}%`,
              }}
            />
          ))}
        </div>
      ) : (
        <p className="bg-sand text-muted flex aspect-[4/3] items-center justify-center rounded-lg p-2 text-center text-xs">
          {photo.state === 'failed' ? 'The photo could not be fetched' : 'Not fetched yet'}
          <span className="sr-only">: {alt}</span>
        </p>
      )}
      <figcaption className="text-ink mt-1 text-sm font-semibold">{faces}</figcaption>
    </figure>
  );
}

/** What each check found, in words, with the source of every rule. */
function Findings({ listing, cardId }: { listing: ScreenedListing; cardId: string }) {
  const found = listing.screening.checks.filter((check) => check.outcome !== 'pass');
  const passed = listing.screening.checks.filter((check) => check.outcome === 'pass');
  return (
    <div className="mt-3">
      <h4 className="text-ink text-sm font-semibold">Why it is held</h4>
      {found.length === 0 && <p className="text-muted mt-1 text-sm">No check gave a reason.</p>}
      <ul className="mt-1 space-y-2">
        {found.map((check) => (
          <li key={check.check} className="bg-cream rounded-lg p-3">
            <p className="text-sm">
              <span className="text-ink font-semibold">{CHECK_NAMES[check.check]}</span>{' '}
              <span
                className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${OUTCOME_BADGES[check.outcome]}`}
              >
                {OUTCOME_LABELS[check.outcome]}
              </span>
            </p>
            <ul className="text-ink mt-1 list-disc space-y-1 pl-5 text-sm break-words">
              {check.reasons.map((reason, i) => {
                const source = httpUrl(reason.source);
                const textId = `${cardId}-${check.check}-${i}`;
                return (
                  <li key={`${reason.rule}-${i}`}>
                    <span id={textId}>{reason.text}</span>
                    {source && (
                      <>
                        {' '}
                        <a
                          href={source}
                          target="_blank"
                          rel="noopener noreferrer"
                          aria-describedby={textId}
                          className="text-brand-dark font-semibold whitespace-nowrap underline underline-offset-4"
                        >
                          Source<span className="sr-only"> (opens in a new tab)</span>
                        </a>
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
      {passed.length > 0 && (
        <p className="text-muted mt-2 text-sm">
          Passed: {passed.map((check) => CHECK_NAMES[check.check].toLowerCase()).join(', ')}.
        </p>
      )}
    </div>
  );
}

const primaryButton = 'bg-brand hover:bg-brand-dark rounded-lg px-3 py-1.5 text-sm font-semibold text-white';
const dangerButton = 'rounded-lg bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800';
const actionButton =
  'border-sand text-ink hover:bg-sand rounded-lg border bg-white px-3 py-1.5 text-sm font-semibold';

/** One held listing: what it is, its photos, why it is held, and the decisions. */
function ListingCard({
  listing,
  onDecide,
}: {
  listing: ScreenedListing;
  onDecide: (listing: ScreenedListing, decision: ListingDecision) => void;
}) {
  const cardId = listingCardId(listing);
  const headingId = `${cardId}-heading`;
  const { photos } = listing.screening;
  const facts = [
    listing.brand,
    ITEM_CATEGORIES[listing.category] ?? listing.category,
    `Age: ${ageGroupLabel(listing.ageGroup)}`,
    conditionLabel(listing.condition),
    formatPrice(listing.listingPrice),
    listing.manufactureYear ? `Made ${listing.manufactureYear}` : null,
  ].filter((fact): fact is string => Boolean(fact));
  return (
    <article
      id={cardId}
      aria-labelledby={headingId}
      // Focus comes here when a decision took the card before it away.
      tabIndex={-1}
      className="focus-visible:outline-brand-dark scroll-mt-24 rounded-2xl border border-amber-300 bg-white p-4 shadow-sm sm:p-5"
    >
      <h3 id={headingId} className="text-ink text-lg font-semibold break-words">
        <span className="sr-only">Listing to check:</span> {listing.itemName}
      </h3>
      <p className="text-muted text-sm break-words">{facts.join(' · ')}</p>
      <p className="text-muted text-sm">
        Received <When iso={listing.receivedAt} />
      </p>
      {listing.description && (
        <p className="text-ink bg-cream mt-2 line-clamp-6 rounded-lg p-3 text-sm break-words whitespace-pre-line">
          {listing.description}
        </p>
      )}
      {photos.length > 0 ? (
        <ul aria-label="Photos" className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {photos.map((photo, i) => (
            <li key={`${photo.sourceUrl}-${i}`}>
              <Photo photo={photo} name={listing.itemName} index={i} of={photos.length} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted mt-3 text-sm">No photos.</p>
      )}
      <Findings listing={listing} cardId={cardId} />
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" className={primaryButton} onClick={() => onDecide(listing, 'clear')}>
          Clear
        </button>
        <button type="button" className={actionButton} onClick={() => onDecide(listing, 'reage')}>
          Change age group
        </button>
        {faceCount(listing) > 0 && (
          <button type="button" className={actionButton} onClick={() => onDecide(listing, 'blur')}>
            Publish with faces blurred
          </button>
        )}
        <button type="button" className={dangerButton} onClick={() => onDecide(listing, 'block')}>
          Block
        </button>
      </div>
    </article>
  );
}

export function ListingsSection({
  listings,
  onDecide,
}: {
  listings: Loaded<ScreenedListing[]>;
  onDecide: (listing: ScreenedListing, decision: ListingDecision) => void;
}) {
  return (
    <Section id="listings" title="Listings to check" count={listings.data?.length}>
      <p className="text-muted mb-4 text-sm">
        Listings the screening held: parents do not see them until you decide. Rules and the photo model flag
        what may be wrong; they can be wrong both ways, so look at the listing and its photos yourself.
      </p>
      {!listings.data ? (
        <Loading what="listings to check" failed={listings.error !== undefined} />
      ) : listings.data.length === 0 ? (
        <p className="text-muted">No listing is waiting for a check.</p>
      ) : (
        <div className="space-y-4">
          {listings.data.map((listing) => (
            <ListingCard key={listing.itemId} listing={listing} onDecide={onDecide} />
          ))}
        </div>
      )}
    </Section>
  );
}
