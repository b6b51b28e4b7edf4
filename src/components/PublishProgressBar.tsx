// What a running publish is doing and how far it is (docs/product.md, "Publishing"), the same words
// and bar on /admin and in the studio: the phase, its count ("30 of 120 pages"), a <progress> bar
// and whether the build renders only what changed or the whole site.
import { PUBLISH_PHASE_LABELS, type PublishPhase, type PublishProgress } from '../../api/contract.ts';

/** What a phase counts, where it counts anything. */
const COUNTED: Partial<Record<PublishPhase, [one: string, many: string]>> = {
  rendering: ['page', 'pages'],
  compressing: ['file', 'files'],
};

const number = (n: number) => n.toLocaleString('en-US');

/** "30 of 120 pages", "30 pages" while the total is not known, null for a phase that counts nothing. */
export function progressCount({ phase, done, total }: PublishProgress): string | null {
  const noun = COUNTED[phase];
  if (!noun) return null;
  const word = (total ?? done) === 1 ? noun[0] : noun[1];
  return total === null ? `${number(done)} ${word}` : `${number(done)} of ${number(total)} ${word}`;
}

/** How much of the site the build renders, once it has decided. */
export function progressScope(incremental: boolean | null): string | null {
  if (incremental === null) return null;
  return incremental ? 'Only the pages this change touches' : 'The whole site';
}

// Drawn by hand (appearance-none) so it looks the same in every browser. Moving parts only under
// motion-safe: with reduced motion the bar jumps to each value and an indeterminate one stays still.
const bar = [
  'bg-sand mt-2 block h-2.5 w-full appearance-none overflow-hidden rounded-full border-0',
  '[&::-webkit-progress-bar]:bg-sand [&::-webkit-progress-value]:bg-brand [&::-moz-progress-bar]:bg-brand',
  '[&::-webkit-progress-value]:rounded-full [&::-moz-progress-bar]:rounded-full',
  'motion-safe:[&::-webkit-progress-value]:transition-[width] motion-safe:[&::-webkit-progress-value]:duration-500',
  // Not known yet: the whole track tinted, pulsing where motion is welcome.
  'indeterminate:bg-brand/30 [&:indeterminate::-webkit-progress-bar]:bg-brand/30',
  '[&:indeterminate::-moz-progress-bar]:bg-transparent motion-safe:indeterminate:animate-pulse',
].join(' ');

interface Props {
  progress: PublishProgress;
  /** Names the bar for screen readers with the phase after it: "Release #12: Rendering pages". */
  name: string;
}

export function PublishProgressBar({ progress, name }: Props) {
  const label = PUBLISH_PHASE_LABELS[progress.phase];
  const count = progressCount(progress);
  const scope = progressScope(progress.incremental);
  const { done, total } = progress;
  // A bar with a value only when there is a total; max must be above 0, and nothing to do is done.
  const measured =
    total === null ? {} : total === 0 ? { value: 1, max: 1 } : { value: Math.min(done, total), max: total };
  return (
    <div className="text-sm">
      <p className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="text-ink font-semibold">{label}</span>
        {count && <span className="text-muted tabular-nums">{count}</span>}
      </p>
      <progress
        aria-label={`${name}: ${label}`}
        aria-valuetext={count ?? undefined}
        className={bar}
        {...measured}
      />
      {scope && <p className="text-muted mt-1">{scope}</p>}
    </div>
  );
}
