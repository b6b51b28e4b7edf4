import { z } from 'zod';
import { unstorableText } from '../lib/storable-text.ts';

// The CPSC SaferProducts.gov Recalls JSON, read as it is published (docs/product.md, "Recall
// screening"): any field may be missing, null or empty, so lists default to empty and empty text
// to null. A record is refused only when it cannot be used: no positive integer RecallID, no title,
// a date that is not a date, a value of the wrong kind, or text neither database can store.

/** Text as published; empty or blank text counts as missing. Kept exactly otherwise. */
const text = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value));
/** Identifiers the service publishes sometimes as numbers, sometimes as text. */
const id = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) =>
    value === undefined || value === null || String(value).trim() === '' ? null : String(value),
  );
/** A list of objects; missing or null is empty, and null entries are skipped. */
const list = <T extends z.ZodType>(entry: T) =>
  z
    .array(entry.nullable())
    .nullish()
    .transform((entries) => (entries ?? []).filter((e): e is NonNullable<z.output<T>> => e !== null));

const company = z.object({ Name: text, CompanyID: id });
const publishedRecord = z.object({
  RecallID: z.number(),
  RecallNumber: id,
  RecallDate: text,
  Title: text,
  Description: text,
  URL: text,
  ConsumerContact: text,
  LastPublishDate: text,
  Products: list(
    z.object({ Name: text, Description: text, Model: text, Type: text, CategoryID: id, NumberOfUnits: id }),
  ),
  Manufacturers: list(company),
  Retailers: list(company),
  Importers: list(company),
  Distributors: list(company),
  Hazards: list(z.object({ Name: text, HazardTypeID: id })),
  Remedies: list(z.object({ Name: text })),
  RemedyOptions: list(z.object({ Option: text })),
  Images: list(z.object({ URL: text })),
  ProductUPCs: list(z.object({ UPC: id })),
  Injuries: list(z.object({ Name: text })),
  ManufacturerCountries: list(z.object({ Country: text })),
});
type PublishedRecord = z.output<typeof publishedRecord>;

export interface RecallProduct {
  name: string | null;
  description: string | null;
  model: string | null;
  type: string | null;
  categoryId: string | null;
  units: string | null;
}
export interface RecallCompany {
  name: string;
  companyId: string | null;
}

/** A recall's lists, normalised: what `recalls.record` holds as JSON, and what matching reads. */
export interface RecallLists {
  products: RecallProduct[];
  manufacturers: RecallCompany[];
  retailers: RecallCompany[];
  importers: RecallCompany[];
  distributors: RecallCompany[];
  hazards: { name: string; hazardTypeId: string | null }[];
  remedies: string[];
  remedyOptions: string[];
  images: string[];
  upcs: string[];
  injuries: string[];
  countries: string[];
}

/** One usable record of the feed. */
export interface FeedRecall {
  recallId: number;
  recallNumber: string | null;
  /** YYYY-MM-DD: the day as published. */
  recallDate: string | null;
  /** As published (validated as a date). */
  lastPublishDate: string | null;
  title: string;
  description: string | null;
  url: string | null;
  consumerContact: string | null;
  lists: RecallLists;
  forChildren: boolean;
}

/** A feed or record that cannot be imported; the message names the record and what is wrong. */
export class RecallFeedError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 5);
    const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more.` : '';
    super(`The recall feed was refused: ${shown.join('\n')}${more}`);
    this.name = 'RecallFeedError';
  }
}

// ISO 8601 as the service writes it: a day, optionally with a time and an offset.
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The day a published date names (YYYY-MM-DD), or null when it is not a real date. */
function publishedDay(value: string): string | null {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

// Children's products (docs/product.md, "Recall screening"): a word of these in a product's type,
// name or description, or in the title's product part (before "Due to", where CPSC titles name the
// hazard and "children" would catch every tip-over of adult furniture). "Child-resistant" packaging
// and sleeper sofas are about other products.
const CHILDREN_WORDS = new RegExp(
  '\\b(?:' +
    [
      'cribs?',
      'bassinets?',
      'strollers?',
      'car ?seats?',
      'booster seats?',
      'high ?chairs?',
      'infants?',
      'bab(?:y|ies)',
      'toddlers?',
      'child(?:ren)?',
      "children's",
      'kids?',
      'toys?',
      'pacifiers?',
      'teethers?',
      'teething',
      'play ?yards?',
      'playards?',
      'playpens?',
      'bouncers?',
      'swings?',
      'walkers?',
      'nursery',
      'sleepers?',
      'youth',
      'juvenile',
      'rattles?',
      'diapers?',
      'bibs?',
      'onesies?',
      'potty',
      'changing tables?',
      'baby gates?',
      'nursing',
      'newborns?',
      'girls?',
      'boys?',
      'sippy',
    ].join('|') +
    ')\\b',
  'iu',
);
const NOT_CHILDREN = /\bchild[- ]resistant\b|\bsleeper (?:sofas?|couch(?:es)?|chairs?)\b/giu;

function mentionsChildren(value: string | null): boolean {
  return value !== null && CHILDREN_WORDS.test(value.replace(NOT_CHILDREN, ' '));
}

/** Whether a recall is of a children's product (what /recalls lists). */
export function isForChildren(title: string, products: readonly RecallProduct[]): boolean {
  const productPart = title.split(/\s+due to\s+/iu)[0] ?? title;
  return (
    mentionsChildren(productPart) ||
    products.some((p) => [p.type, p.name, p.description].some((value) => mentionsChildren(value)))
  );
}

const names = (entries: { Name: string | null }[]) =>
  entries.flatMap((e) => (e.Name === null ? [] : [e.Name]));
const companies = (entries: { Name: string | null; CompanyID: string | null }[]): RecallCompany[] =>
  entries.flatMap((e) => (e.Name === null ? [] : [{ name: e.Name, companyId: e.CompanyID }]));

function normalise(record: PublishedRecord, title: string, recallDate: string | null): FeedRecall {
  const products = record.Products.map((p) => ({
    name: p.Name,
    description: p.Description,
    model: p.Model,
    type: p.Type,
    categoryId: p.CategoryID,
    units: p.NumberOfUnits,
  })).filter((p) => p.name !== null || p.description !== null || p.model !== null || p.type !== null);
  const lists: RecallLists = {
    products,
    manufacturers: companies(record.Manufacturers),
    retailers: companies(record.Retailers),
    importers: companies(record.Importers),
    distributors: companies(record.Distributors),
    hazards: record.Hazards.flatMap((h) =>
      h.Name === null ? [] : [{ name: h.Name, hazardTypeId: h.HazardTypeID }],
    ),
    remedies: names(record.Remedies),
    remedyOptions: record.RemedyOptions.flatMap((o) => (o.Option === null ? [] : [o.Option])),
    images: record.Images.flatMap((i) => (i.URL === null ? [] : [i.URL])),
    upcs: record.ProductUPCs.flatMap((u) => (u.UPC === null ? [] : [u.UPC])),
    injuries: names(record.Injuries),
    countries: record.ManufacturerCountries.flatMap((c) => (c.Country === null ? [] : [c.Country])),
  };
  return {
    recallId: record.RecallID,
    recallNumber: record.RecallNumber,
    recallDate,
    lastPublishDate: record.LastPublishDate,
    title,
    description: record.Description,
    url: record.URL,
    consumerContact: record.ConsumerContact,
    lists,
    forChildren: isForChildren(title, products),
  };
}

const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : typeof value === 'string'
          ? 'text'
          : `a ${typeof value}`;
const EXPECTED: Record<string, string> = {
  array: 'a list',
  object: 'an object',
  string: 'text',
  number: 'a number',
};

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of path) here = (here as Record<PropertyKey, unknown> | null | undefined)?.[key];
  return here;
}

/** What is wrong with one record (in words), or the record itself. */
function checkRecord(raw: unknown): FeedRecall | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return `must be an object, not ${kindOf(raw)}.`;
  }
  const parsed = publishedRecord.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.');
    const found = valueAt(raw, issue.path);
    if (where === 'RecallID') {
      return found === undefined
        ? 'RecallID is missing.'
        : `RecallID ${JSON.stringify(found)} is not a positive whole number.`;
    }
    if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
      const expected = issue.code === 'invalid_type' ? (EXPECTED[issue.expected] ?? issue.expected) : 'text';
      return `${where} must be ${expected}, not ${kindOf(found)}.`;
    }
    return `${where}: ${issue.message}.`;
  }
  const record = parsed.data;
  if (!Number.isSafeInteger(record.RecallID) || record.RecallID <= 0) {
    return `RecallID ${record.RecallID} is not a positive whole number.`;
  }
  if (record.Title === null) return 'Title is missing.';
  const unstorable = unstorableText(record);
  if (unstorable !== null)
    return `${unstorable} contains text that cannot be stored (a NUL or an unpaired surrogate).`;
  const recallDate = record.RecallDate === null ? null : publishedDay(record.RecallDate);
  if (record.RecallDate !== null && recallDate === null) {
    return `RecallDate ${JSON.stringify(record.RecallDate)} is not a date.`;
  }
  if (record.LastPublishDate !== null && publishedDay(record.LastPublishDate) === null) {
    return `LastPublishDate ${JSON.stringify(record.LastPublishDate)} is not a date.`;
  }
  return normalise(record, record.Title, recallDate);
}

// Bytes of the JSON syntax the splitter follows.
const [QUOTE, BACKSLASH, OPEN_LIST, CLOSE_LIST, OPEN_OBJECT, CLOSE_OBJECT, COMMA] = [
  0x22, 0x5c, 0x5b, 0x5d, 0x7b, 0x7d, 0x2c,
];
const isSpace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * Where each element of a JSON array starts and ends in `bytes`, following only strings and
 * nesting; null when it is not laid out as one (JSON.parse of the whole then says what is wrong).
 * Each element is parsed on its own, so a 27 MB feed never exists as one tree of objects.
 */
function splitJsonArray(bytes: Uint8Array): [number, number][] | null {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (isSpace(bytes[at])) at += 1;
  if (bytes[at] !== OPEN_LIST) return null;
  const ranges: [number, number][] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (at += 1; at < bytes.length; at += 1) {
    const byte = bytes[at]!;
    if (inString) {
      if (byte === BACKSLASH) at += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (isSpace(byte)) continue;
    if (depth === 0 && (byte === COMMA || byte === CLOSE_LIST)) {
      if (start < 0) {
        if (byte === COMMA || ranges.length > 0) return null;
      } else {
        let end = at;
        while (isSpace(bytes[end - 1])) end -= 1;
        ranges.push([start, end]);
        start = -1;
      }
      if (byte === CLOSE_LIST) {
        for (at += 1; at < bytes.length; at += 1) if (!isSpace(bytes[at])) return null;
        return ranges;
      }
      continue;
    }
    if (start < 0) start = at;
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_LIST || byte === OPEN_OBJECT) depth += 1;
    else if (byte === CLOSE_LIST || byte === CLOSE_OBJECT) depth -= 1;
    if (depth < 0) return null;
  }
  return null;
}

/** The feed's top-level list, or for bytes laid out as a list, its elements parsed one by one. */
function feedValues(feed: unknown): unknown[] | Generator<unknown> {
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new RecallFeedError([`it is not JSON (${(error as Error).message}).`]);
    }
  };
  const decoder = new TextDecoder();
  const whole = (bytes: Uint8Array) => parse(decoder.decode(bytes));
  let value = feed;
  if (feed instanceof Uint8Array) {
    const ranges = splitJsonArray(feed);
    if (ranges) {
      return (function* () {
        for (const [from, to] of ranges) {
          let item: unknown;
          try {
            item = JSON.parse(decoder.decode(feed.subarray(from, to)));
          } catch {
            // An element that is not JSON on its own: the whole text's error says where.
            whole(feed);
            throw new RecallFeedError(['it is not JSON.']);
          }
          yield item;
        }
      })();
    }
    value = whole(feed);
  } else if (typeof feed === 'string') {
    value = parse(feed);
  }
  if (!Array.isArray(value))
    throw new RecallFeedError([`it must be a list of records, not ${kindOf(value)}.`]);
  return value;
}

/**
 * Reads a whole feed (its JSON text or bytes, or the value parsed from it) and hands each usable
 * record to `keep`, in order; then throws a RecallFeedError naming every record that cannot be used
 * (`Record 3 (RecallID 9102): …`, counting from 1). On a throw, whatever was kept must be dropped.
 */
export function readRecallRecords(feed: unknown, keep: (recall: FeedRecall) => void): void {
  const problems: string[] = [];
  let index = 0;
  for (const raw of feedValues(feed)) {
    index += 1;
    const checked = checkRecord(raw);
    if (typeof checked !== 'string') {
      keep(checked);
      continue;
    }
    const recallId = (raw as { RecallID?: unknown } | null)?.RecallID;
    const named =
      Number.isSafeInteger(recallId) && (recallId as number) > 0 ? ` (RecallID ${String(recallId)})` : '';
    problems.push(`Record ${index}${named}: ${checked}`);
  }
  if (problems.length > 0) throw new RecallFeedError(problems);
}

/**
 * The usable records of a feed, or a RecallFeedError (see readRecallRecords). A RecallID that
 * appears twice is the same recall: the later record wins.
 */
export function parseRecallFeed(feed: unknown): FeedRecall[] {
  const byId = new Map<number, FeedRecall>();
  readRecallRecords(feed, (recall) => {
    byId.delete(recall.recallId);
    byId.set(recall.recallId, recall);
  });
  return [...byId.values()];
}
