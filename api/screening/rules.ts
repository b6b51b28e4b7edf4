// The listing screening rules' engine (docs/product.md, "Listing screening"): pure, no I/O. It reads
// every field of a listing (name, brand, category, description, condition, age group, year) and
// applies the rules of ./rule-base.ts, which hold what each rule looks for and says.
import type { ScreeningReason } from '../contract/screening.ts';
import {
  ACCESSORY_WORDS,
  type AgeClass,
  type Branch,
  CATEGORY_TYPES,
  type MadeClass,
  type Outcome,
  PLAYTHING_WORDS,
  PRODUCT_TYPES,
  type Region,
  RULES,
  type TextField,
  type When,
} from './rule-base.ts';
import {
  type AgeRange,
  ageInText,
  BREAK,
  type FieldText,
  fieldText,
  findPhrase,
  fold,
  isNegated,
  PAUSE,
  parseAgeGroup,
  phraseStems,
  sizesInMm,
  type Span,
  stem,
  type TextYears,
  yearsInText,
} from './text.ts';

export interface RuleInput {
  itemName: string;
  category: string;
  condition: string | null;
  brand: string | null;
  ageGroup: string | null;
  description?: string | null;
  manufactureYear?: number | null;
}

export interface RuleFinding extends ScreeningReason {
  outcome: 'block' | 'flag' | 'note';
}

export interface RuleOptions {
  /** Today, for car seats' age (default: now). */
  now?: Date;
  /** Where the marketplace sells: regional rules apply only there (default 'US'). */
  region?: Region;
}

/** Raise when the engine's own logic changes what it finds (the rule base's data counts by itself). */
const ENGINE_VERSION = 1;

/** FNV-1a, 32 bits: enough to tell one rule base from another. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The version of the rules a finding was made by: stored with a listing's findings, so listings
 * screened by an older rule base are screened again. It changes whenever the rule base does.
 */
export const RULES_VERSION = `${ENGINE_VERSION}-${fnv1a(
  JSON.stringify([RULES, PRODUCT_TYPES, CATEGORY_TYPES, ACCESSORY_WORDS, PLAYTHING_WORDS]),
)}`;

const FIELDS: TextField[] = ['name', 'brand', 'category', 'description'];
const RANK = { pass: 0, note: 1, flag: 2, block: 3 } as const;
/** Brands that name no one. */
const NO_BRAND = new Set([
  '',
  'various',
  'unknown',
  'generic',
  'none',
  'na',
  'n a',
  'other',
  'unbranded',
  'no brand',
  'handmade',
  'homemade',
]);
/** Words that end the run of words after a product's name that could make it an accessory. */
const STOPPERS = new Set([
  BREAK,
  PAUSE,
  'with',
  'and',
  'or',
  'for',
  'in',
  'plus',
  'including',
  'includes',
  'by',
]);
const ACCESSORIES = new Set(ACCESSORY_WORDS.map(stem));
const PLAYTHINGS = new Set(PLAYTHING_WORDS.map(stem));

// Phrases are tokenised once, when the module loads.
const stemCache = new Map<string, string[]>();
const stemsOf = (phrase: string): string[] => {
  let stems = stemCache.get(phrase);
  if (!stems) stemCache.set(phrase, (stems = phraseStems(phrase)));
  return stems;
};
const TYPES = PRODUCT_TYPES.map((t) => ({
  id: t.id,
  names: t.names.map(stemsOf),
  except: (t.except ?? []).map(stemsOf),
}));

/** A listing read once: its words by field, product types, ages, years, sizes. */
interface Prepared {
  fields: FieldText[];
  /** Every stem of every field. */
  words: Set<string>;
  /** The brand as NO_BRAND spells it. */
  brand: string;
  types: Set<string>;
  age: AgeRange | null;
  condition: string;
  years: TextYears;
  madeYear: { from: number; to: number } | null;
  /** The smallest size stated, in millimetres, or null. */
  smallestMm: number | null;
  now: Date;
  region: Region;
}

const within = (outer: Span, inner: Span) =>
  outer.field === inner.field && outer.start <= inner.start && inner.end <= outer.end;

/** A product name at `span` that is really something else: a "crib sheet", a "doll stroller". */
function isOtherProduct(field: FieldText, span: Span): boolean {
  const before = field.tokens[span.start - 1]?.stem;
  if (before !== undefined && PLAYTHINGS.has(before)) return true;
  for (let i = span.end; i < Math.min(span.end + 2, field.tokens.length); i += 1) {
    const s = field.tokens[i]!.stem;
    if (STOPPERS.has(s)) return false;
    if (ACCESSORIES.has(s)) return true;
  }
  return false;
}

function productTypes(
  name: FieldText,
  category: FieldText,
  description: FieldText,
  categoryRaw: string,
): Set<string> {
  const found = new Set<string>();
  const detect = (fields: FieldText[]) => {
    for (const type of TYPES) {
      const excluded = type.except.flatMap((e) => findPhrase(fields, e));
      const hit = type.names.some((n) =>
        findPhrase(fields, n).some(
          (span) => !excluded.some((x) => within(x, span)) && !isOtherProduct(fields[span.field]!, span),
        ),
      );
      if (hit) found.add(type.id);
    }
  };
  detect([name, category]);
  // The description names the product only when the name and category do not.
  if (found.size === 0) detect([description]);
  const fromCategory = CATEGORY_TYPES[fold(categoryRaw).replace(/&/g, 'and').replace(/\s+/g, ' ').trim()];
  if (fromCategory) found.add(fromCategory);
  return found;
}

function prepare(input: RuleInput, options: RuleOptions): Prepared {
  const now = options.now ?? new Date();
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const fields = [
    fieldText(text(input.itemName)),
    fieldText(text(input.brand)),
    fieldText(text(input.category)),
    fieldText(text(input.description)),
  ];
  const thisYear = now.getUTCFullYear();
  const years = yearsInText([fields[0]!, fields[3]!], thisYear);
  const y = input.manufactureYear;
  const madeYear =
    typeof y === 'number' && Number.isInteger(y) && y >= 1900 && y <= thisYear + 1
      ? { from: y, to: y }
      : years.made;
  return {
    fields,
    words: new Set(fields.flatMap((f) => [...f.index.keys()])),
    brand: fold(text(input.brand))
      .replace(/[^a-z0-9]+/g, ' ')
      .trim(),
    types: productTypes(fields[0]!, fields[2]!, fields[3]!, text(input.category)),
    age:
      parseAgeGroup(text(input.ageGroup)) ??
      ageInText(`${text(input.itemName)} . ${text(input.description)}`),
    condition: fold(text(input.condition))
      .replace(/[-_\s]+/g, ' ')
      .trim(),
    years,
    madeYear,
    smallestMm: sizesInMm(`${text(input.itemName)} ${text(input.description)}`).reduce<number | null>(
      (a, b) => (a === null || b < a ? b : a),
      null,
    ),
    now,
    region: options.region ?? 'US',
  };
}

/** The places a phrase of `phrases` occurs, not denied and not inside an `except` phrase. */
function signals(
  p: Prepared,
  phrases: readonly string[],
  fields?: TextField[],
  except?: readonly string[],
): boolean {
  const spans = phrases.flatMap((phrase) => {
    const stems = stemsOf(phrase);
    // Most phrases are of words the listing does not have: one look-up says so.
    return p.words.has(stems[0]!) ? findPhrase(p.fields, stems) : [];
  });
  if (spans.length === 0) return false;
  const excluded = (except ?? []).flatMap((e) => findPhrase(p.fields, stemsOf(e)));
  return spans.some(
    (span) =>
      (!fields || fields.includes(FIELDS[span.field]!)) &&
      !isNegated(p.fields, span) &&
      !excluded.some((x) => within(x, span)),
  );
}

const present = (p: Prepared, phrases: readonly string[]) =>
  phrases.some((phrase) => {
    const stems = stemsOf(phrase);
    return p.words.has(stems[0]!) && findPhrase(p.fields, stems).length > 0;
  });

function ageClass(age: AgeRange | null, line: number): AgeClass {
  if (!age) return 'unknown';
  if (age.max < line) return 'under';
  if (age.min >= line) return 'over';
  return 'straddles';
}

function madeClass(made: { from: number; to: number } | null, cutoff: string): MadeClass {
  if (!made) return 'unknown';
  const [year, month, day] = cutoff.split('-').map(Number) as [number, number, number];
  if (made.to < year) return 'before';
  if (made.from > year || (made.from === year && month === 1 && day === 1)) return 'after';
  return 'ambiguous';
}

function applies(p: Prepared, when: When): boolean {
  if (when.regions && !when.regions.includes(p.region)) return false;
  if (when.types && !when.types.some((t) => p.types.has(t))) return false;
  if (when.notTypes?.some((t) => p.types.has(t))) return false;
  if (when.conditions && !when.conditions.includes(p.condition)) return false;
  if (when.age && !when.age.is.includes(ageClass(p.age, when.age.line))) return false;
  if (when.made && !when.made.is.includes(madeClass(p.madeYear, when.made.before))) return false;
  if (when.undated && (p.madeYear !== null || p.years.expires !== null)) return false;
  if (when.expired && (p.years.expires === null || p.years.expires >= p.now.getUTCFullYear())) return false;
  if (when.yearsOld) {
    if (!p.madeYear) return false;
    const old = p.now.getUTCFullYear() - p.madeYear.to;
    if (old < (when.yearsOld.min ?? 0) || old > (when.yearsOld.max ?? Infinity)) return false;
  }
  if (when.sizeAtMostMm !== undefined && p.smallestMm !== null && p.smallestMm > when.sizeAtMostMm)
    return false;
  if (when.unbranded && !NO_BRAND.has(p.brand)) return false;
  if (when.none && present(p, when.none)) return false;
  if (when.any && !signals(p, when.any, when.fields, when.except)) return false;
  if (when.also && !signals(p, when.also)) return false;
  return true;
}

interface Found {
  finding: RuleFinding;
  suggestAge: string | undefined;
}

function run(listing: RuleInput, options: RuleOptions): Found[] {
  const p = prepare(listing, options);
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const rule of RULES) {
    if (rule.when && !applies(p, rule.when)) continue;
    for (const branch of rule.branches as Branch[]) {
      if (!applies(p, branch.when)) continue;
      const key = `${rule.id} ${branch.outcome} ${branch.text}`;
      if (!seen.has(key)) {
        seen.add(key);
        const outcome: Outcome = branch.outcome;
        found.push({
          finding: { rule: rule.id, outcome, text: branch.text, source: rule.source },
          suggestAge: branch.suggestAge,
        });
      }
      if (!branch.alsoNext) break;
    }
  }
  return found;
}

/** What the rules find in a listing: each rule's outcome, its plain words and its source. */
export function screenListingRules(listing: RuleInput, options: RuleOptions = {}): RuleFinding[] {
  return run(listing, options).map((f) => f.finding);
}

/** The strongest outcome, or 'pass' when none. */
export function strongestOutcome(findings: RuleFinding[]): 'pass' | 'note' | 'flag' | 'block' {
  let best: 'pass' | 'note' | 'flag' | 'block' = 'pass';
  for (const f of findings) if (RANK[f.outcome] > RANK[best]) best = f.outcome;
  return best;
}

/** A better age group for the listing where a rule knows one (a LEGO set at 1-2 years: 3+ years). */
export function suggestedAgeGroup(listing: RuleInput, options: RuleOptions = {}): string | null {
  return run(listing, options).find((f) => f.suggestAge !== undefined)?.suggestAge ?? null;
}
