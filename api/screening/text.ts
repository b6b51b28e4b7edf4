// Text helpers for the screening rules: words in a comparable form, phrases found as whole words,
// negation ("no bumper", "drawstring removed"), the age a listing is for and the year it was made.
// Pure and linear in the input's length, so a megabyte of description costs milliseconds.

/** One word of a field: its stem (what phrases compare) and its raw form (for years, "1970s"). */
export interface Token {
  stem: string;
  raw: string;
}

/** A field's words, with the places each stem occurs. */
export interface FieldText {
  tokens: Token[];
  index: Map<string, number[]>;
}

/** A phrase found in a field: tokens [start, end). */
export interface Span {
  field: number;
  start: number;
  end: number;
}

/** Sentence ends: a phrase never spans one, nor does a negation reach over one. */
export const BREAK = '.';
/** A comma or bracket: it ends a phrase, but a negation reaches over it ("bumper (not included)"). */
export const PAUSE = ',';

/** Lowercase, without accents; apostrophes vanish ("rock 'n play" → "rock n play"). */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`´]/g, '');
}

/** A word reduced so plurals compare equal to the singular: "bumpers" = "bumper", "babies" = "baby". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word) && !/\d/.test(word)) {
    return word.slice(0, -1);
  }
  return word;
}

// Decimals ("1.25") and counts with a plus ("3+") are words; . ! ? ; and line ends end a sentence;
// commas, colons and brackets end a phrase ("High chair, tray latch broken" is no "chair tray").
// Anything else (control characters, lone surrogates, other punctuation) only separates words.
const WORD = /\d+(?:\.\d+)?\+?|[\p{L}\p{N}]+\+?|[.!?;\n]|[,:()[\]]/gu;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of fold(text).matchAll(WORD)) {
    const raw = m[0];
    if (/^[.!?;\n]$/.test(raw)) {
      if (tokens.length > 0 && tokens[tokens.length - 1]!.stem !== BREAK) tokens.push({ stem: BREAK, raw });
    } else if (/^[,:()[\]]$/.test(raw)) {
      if (tokens.length > 0 && tokens[tokens.length - 1]!.stem !== BREAK) tokens.push({ stem: PAUSE, raw });
    } else {
      tokens.push({ stem: stem(raw), raw });
    }
  }
  return tokens;
}

export function fieldText(text: string | null | undefined): FieldText {
  const tokens = text ? tokenize(text) : [];
  const index = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    const list = index.get(t.stem);
    if (list) list.push(i);
    else index.set(t.stem, [i]);
  });
  return { tokens, index };
}

/** A phrase as the stems it must match in order. */
export function phraseStems(phrase: string): string[] {
  return tokenize(phrase)
    .map((t) => t.stem)
    .filter((s) => s !== BREAK && s !== PAUSE);
}

/** Every place a phrase occurs as whole words in the fields. */
export function findPhrase(fields: readonly FieldText[], stems: readonly string[]): Span[] {
  const found: Span[] = [];
  if (stems.length === 0) return found;
  fields.forEach((f, field) => {
    for (const start of f.index.get(stems[0]!) ?? []) {
      let ok = start + stems.length <= f.tokens.length;
      for (let j = 1; ok && j < stems.length; j += 1) ok = f.tokens[start + j]!.stem === stems[j];
      if (ok) found.push({ field, start, end: start + stems.length });
    }
  });
  return found;
}

// ---- Negation ----------------------------------------------------------------------------------

/** Words that deny what follows: "no bumper", "without drawstring", "not weighted", "never crashed". */
const NEGATORS_BEFORE = new Set(['no', 'not', 'non', 'without', 'never', 'nothing', 'none', 'zero']);
/** Words that deny what precedes: "drawstring removed", "bumper-free", "bumper not included". */
const NEGATIONS_AFTER = [
  ['removed'],
  ['free'],
  ['excluded'],
  ['detached'],
  ['not', 'included'],
  ['not', 'attached'],
  ['not', 'present'],
  ['sold', 'separately'],
  ['taken', 'off'],
  ['taken', 'out'],
  ['cut', 'off'],
  ['cut', 'out'],
];
/** Small words a negation reaches over: "never been in an accident", "has been removed". */
const FILLERS = new Set([
  PAUSE,
  'a',
  'an',
  'the',
  'any',
  'in',
  'into',
  'been',
  'ever',
  'had',
  'has',
  'have',
  'was',
  'were',
  'is',
  'are',
  'involved',
  'of',
  'it',
  'its',
  'their',
  'all',
  'both',
  'already',
  'safely',
  'completely',
  'fully',
]);

/** Whether a phrase found at `span` is denied by the words around it in its sentence. */
export function isNegated(fields: readonly FieldText[], span: Span): boolean {
  const tokens = fields[span.field]!.tokens;
  // Before: a negator, with up to three small words between ("not been in a crash").
  for (let i = span.start - 1, skipped = 0; i >= 0 && skipped <= 3; i -= 1, skipped += 1) {
    const s = tokens[i]!.stem;
    if (NEGATORS_BEFORE.has(s)) return true;
    if (!FILLERS.has(s)) break;
  }
  // After: a denial, with up to three small words between ("drawstrings have been removed").
  let i = span.end;
  for (let skipped = 0; i < tokens.length && skipped < 3 && FILLERS.has(tokens[i]!.stem); skipped += 1)
    i += 1;
  return NEGATIONS_AFTER.some((words) => words.every((w, j) => tokens[i + j]?.stem === w));
}

// ---- Ages --------------------------------------------------------------------------------------

/** An age range in months; `max` is Infinity for "3+ years" or "All Ages". */
export interface AgeRange {
  min: number;
  max: number;
}

const UNIT_MONTHS: Record<string, number> = {
  m: 1,
  mo: 1,
  mos: 1,
  mth: 1,
  mths: 1,
  month: 1,
  months: 1,
  y: 12,
  yr: 12,
  yrs: 12,
  year: 12,
  years: 12,
};

const NUMBER = String.raw`(\d{1,2}(?:\.\d)?)`;
const UNIT = String.raw`(months?|mos?|mths?|m|years?|yrs?|y)`;
const RANGE = new RegExp(String.raw`${NUMBER}\s*(?:${UNIT})?\s*(?:-|–|to)\s*${NUMBER}\s*${UNIT}(?![a-z])`);
const PLUS = new RegExp(String.raw`${NUMBER}\s*(?:\+\s*${UNIT}?|${UNIT}\s*(?:\+|and up|and older|and over))`);
const SINGLE = new RegExp(String.raw`(?:^|\s)${NUMBER}\s*${UNIT}(?![a-z])`);
/** Clothing sizes: "2T", "5T". */
const TODDLER_SIZE = /(?:^|[^a-z0-9])(\d{1,2})\s*t(?![a-z])/;

/**
 * The ages an age group names, in months: "0-6 months", "1-2 years", "6 months - 2 years", "3+",
 * "6 months+", "2T", "All Ages", "Toddler size 7"; null when it names none.
 */
export function parseAgeGroup(text: string | null | undefined): AgeRange | null {
  if (!text) return null;
  const t = fold(text).slice(0, 200).replace(/\s+/g, ' ').trim();
  if (/\ball ages\b|\bany age\b/.test(t)) return { min: 0, max: Infinity };
  let m = RANGE.exec(t);
  if (m) {
    const to = UNIT_MONTHS[m[4]!]!;
    const from = m[2] ? UNIT_MONTHS[m[2]]! : to;
    const min = Number(m[1]) * from;
    const max = Number(m[3]) * to;
    return min <= max ? { min, max } : null;
  }
  m = PLUS.exec(t);
  if (m) return { min: Number(m[1]) * UNIT_MONTHS[m[2] ?? m[3] ?? 'years']!, max: Infinity };
  m = TODDLER_SIZE.exec(t);
  if (m) return { min: Number(m[1]) * 12, max: Number(m[1]) * 12 + 11 };
  m = SINGLE.exec(t);
  if (m) {
    const unit = UNIT_MONTHS[m[2]!]!;
    return { min: Number(m[1]) * unit, max: Number(m[1]) * unit + (unit === 12 ? 11 : 0) };
  }
  if (/\bnewborns?\b|\bnb\b/.test(t)) return { min: 0, max: 3 };
  if (/\b(?:infants?|babies|baby)\b/.test(t)) return { min: 0, max: 12 };
  if (/\btoddlers?\b/.test(t)) return { min: 12, max: 48 };
  if (/\b(?:kids?|youth|big kid)\b/.test(t)) return { min: 48, max: 156 };
  if (/\badults?\b/.test(t)) return { min: 216, max: Infinity };
  return null;
}

/** An age a listing's own words state ("0-6 m", "5T", "4+", "for newborns"), or null. */
export function ageInText(text: string): AgeRange | null {
  const t = fold(text.slice(0, 2000));
  // Stated ages first ("Kids' bean bag, 4+"), then words such as "newborn" or "baby".
  return parseAgeGroup(t.replace(/\b(?:baby|babies|infants?|kids?|youth)\b/g, ' ')) ?? parseAgeGroup(t);
}

// ---- Years -------------------------------------------------------------------------------------

/** The years a listing's words say it was made in (a decade is a range), and when it expires. */
export interface TextYears {
  made: { from: number; to: number } | null;
  expires: number | null;
}

const MADE_WORDS = new Set([
  'made',
  'manufactured',
  'manufacture',
  'mfg',
  'mfd',
  'built',
  'dated',
  'date',
  'from',
]);
const EXPIRY_WORDS = new Set([
  'expire',
  'expires',
  'expiry',
  'expiration',
  'exp',
  'until',
  'thru',
  'through',
]);
const NOT_MADE_WORDS = new Set(['bought', 'purchased', 'model', 'no', 'number', 'item', 'sku', 'since']);
const COUNT_WORDS = new Set(['piece', 'pc', 'pcs', 'mah', 'ml', 'mm', 'g', 'lb', 'lbs', 'w', 'watt', 'rpm']);

/** Years stated in the words (1950 to next year); a year said to be "made" wins over a bare one. */
export function yearsInText(fields: readonly FieldText[], thisYear: number): TextYears {
  let marked: { from: number; to: number } | null = null;
  let bare: { from: number; to: number } | null = null;
  let expires: number | null = null;
  for (const { tokens } of fields) {
    tokens.forEach((t, i) => {
      const m = /^(19[5-9]\d|20\d\d)(s?)$/.exec(t.raw);
      if (!m) return;
      const year = Number(m[1]);
      if (year > thisYear + 1) return;
      const before = [tokens[i - 1]?.raw, tokens[i - 2]?.raw];
      if (COUNT_WORDS.has(tokens[i + 1]?.raw ?? '')) return;
      if (before.some((w) => w !== undefined && EXPIRY_WORDS.has(w))) {
        expires ??= year;
        return;
      }
      if (before.some((w) => w !== undefined && NOT_MADE_WORDS.has(w))) return;
      const range = m[2] ? { from: year, to: year + 9 } : { from: year, to: year };
      if (before.some((w) => w !== undefined && MADE_WORDS.has(w))) marked ??= range;
      else bare ??= range;
    });
  }
  return { made: marked ?? bare, expires };
}

// ---- Sizes -------------------------------------------------------------------------------------

const SIZE = /(\d+(?:\.\d+)?)\s*(mm|cm|inches|inch|in\b|")/g;

/** Sizes stated in a text, in millimetres ("1.25 in" → 31.75). */
export function sizesInMm(text: string): number[] {
  const out: number[] = [];
  for (const m of fold(text.slice(0, 20_000)).matchAll(SIZE)) {
    const n = Number(m[1]);
    out.push(m[2] === 'mm' ? n : m[2] === 'cm' ? n * 10 : n * 25.4);
  }
  return out;
}
