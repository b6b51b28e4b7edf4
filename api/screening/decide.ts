// Where a listing's screening stands, from what each check found and what a moderator decided
// (docs/product.md, "Listing screening"). Pure: the database layer gathers the inputs, stores the
// state this gives, and the moderation console shows the checks it lists.
import type {
  CheckOutcome,
  CheckResult,
  ListingDecision,
  ScreeningCheck,
  ScreeningReason,
  ScreeningState,
} from '../contract/screening.ts';

/** A finding of the age and condition rules (api/screening/rules.ts gives these). */
export interface RuleFindingInput {
  rule: string;
  outcome: 'block' | 'flag' | 'note';
  text: string;
  source: string | null;
}

export interface PhotoInput {
  state: 'queued' | 'analysed' | 'failed';
  outcome: 'pass' | 'flag' | null;
  reasons: ScreeningReason[];
}

export interface RecallInput {
  status: 'open' | 'confirmed' | 'dismissed';
  title: string;
  url: string | null;
}

export interface ScreeningInputs {
  findings: RuleFindingInput[];
  photos: PhotoInput[];
  recalls: RecallInput[];
  /** Whether any recall data has been imported: without it, no recall check has run. */
  recallData: boolean;
  decision: ListingDecision | null;
}

export interface ScreeningOutcome {
  state: ScreeningState;
  checks: CheckResult[];
  /** The checks that have run on this version of the listing. */
  ran: ScreeningCheck[];
  /** What parents read on the item: the rules' notes, each once. */
  safetyNotes: string[];
}

const RANK: Record<CheckOutcome, number> = { pass: 0, note: 1, pending: 2, flag: 3, block: 4 };
const strongest = (outcomes: CheckOutcome[]): CheckOutcome =>
  outcomes.reduce<CheckOutcome>((a, b) => (RANK[b] > RANK[a] ? b : a), 'pass');

function rulesCheck(findings: RuleFindingInput[]): CheckResult {
  return {
    check: 'rules',
    outcome: strongest(findings.map((f) => f.outcome)),
    reasons: findings.map(({ rule, text, source }) => ({ rule, text, source })),
  };
}

function recallCheck(recalls: RecallInput[]): CheckResult {
  const relevant = recalls.filter((r) => r.status !== 'dismissed');
  return {
    check: 'recall',
    outcome: strongest(relevant.map((r) => (r.status === 'confirmed' ? 'block' : 'flag'))),
    reasons: relevant.map((r) => ({
      rule: r.status === 'confirmed' ? 'recall.confirmed' : 'recall.open',
      text:
        r.status === 'confirmed'
          ? `A moderator confirmed that this is the recalled product: ${r.title}`
          : `This may be a recalled product: ${r.title}. A moderator will compare them.`,
      source: r.url,
    })),
  };
}

function photoCheck(photos: PhotoInput[]): CheckResult {
  return {
    check: 'photo',
    outcome: strongest(
      photos.map((p) =>
        p.state === 'queued' ? 'pending' : p.state === 'failed' ? 'flag' : (p.outcome ?? 'pass'),
      ),
    ),
    reasons: photos.flatMap((p) => p.reasons),
  };
}

/**
 * The state, in this order: a moderator's block or a confirmed recall blocks; a moderator's clear
 * (as it is, or with faces blurred) publishes; a rule's block blocks; a photo still waiting keeps
 * it pending; any flag (a rule, a photo, a possible recall) holds it for a moderator; otherwise it
 * is cleared. A new age group is the moderator's answer to the rules (screened again under it,
 * their flags reviewed), not to a photo or a possible recall: those still hold it, so re-aging
 * never publishes a face.
 */
export function decideScreening(inputs: ScreeningInputs): ScreeningOutcome {
  const checks = [rulesCheck(inputs.findings)];
  if (inputs.recallData) checks.push(recallCheck(inputs.recalls));
  if (inputs.photos.length > 0) checks.push(photoCheck(inputs.photos));
  const outcome = (check: ScreeningCheck) => checks.find((c) => c.check === check)?.outcome ?? 'pass';
  const ran = checks.filter((c) => c.outcome !== 'pending').map((c) => c.check);
  const safetyNotes = [...new Set(inputs.findings.filter((f) => f.outcome === 'note').map((f) => f.text))];

  const state = ((): ScreeningState => {
    if (inputs.decision === 'block' || outcome('recall') === 'block') return 'blocked';
    if (inputs.decision === 'clear' || inputs.decision === 'blur') return 'cleared';
    if (outcome('rules') === 'block') return 'blocked';
    if (outcome('photo') === 'pending') return 'pending';
    const reviewed =
      inputs.decision === 'reage' ? new Set<ScreeningCheck>(['rules']) : new Set<ScreeningCheck>();
    if (checks.some((c) => c.outcome === 'flag' && !reviewed.has(c.check))) return 'held';
    return 'cleared';
  })();
  return { state, checks, ran, safetyNotes };
}
