// Matching items against recalls (docs/product.md, "Recall screening"): pure functions, no
// database. Names are normalised (case, punctuation, diacritics, "&"/"and", company suffixes, a
// leading "The"); evidence adds up to a score from 0 to 100, with the terms that matched in words a
// moderator reads. A brand alone never reaches RECALL_MATCH_MIN_SCORE; a brand with product words
// or a model number in the item's name does; a product name alone is borderline.
import { RECALL_MATCH_MIN_SCORE } from '../contract.ts';

/** What matching needs of a recall: the names and models of its products, and its companies. */
export interface MatchableRecall {
  recallId: number;
  products: { name: string | null; model: string | null }[];
  manufacturers: string[];
  retailers: string[];
  importers: string[];
  distributors: string[];
}

export interface MatchableItem {
  itemId: string;
  itemName: string;
  brand: string | null;
}

export interface MatchCandidate {
  itemId: string;
  recallId: number;
  /** 0 to 100. */
  score: number;
  terms: string[];
}

/** The points each kind of evidence adds (capped at 100). */
export const MATCH_POINTS = {
  /** The brand is a manufacturer's, importer's or distributor's name. */
  brandIsCompany: 40,
  /** The brand is a retailer's name: a retailer sells other makers' goods, so it says less. */
  brandIsRetailer: 30,
  /** The brand's words appear in a company's name or a product's name. */
  brandInName: 35,
  /** A model number of the recall appears in the item's name. */
  model: 55,
  /** Words of the item's name (other than the brand's) shared with one product name: 1, 2, 3, 4+. */
  productWords: [0, 15, 30, 40, 45] as readonly number[],
  /** The item's name holds every word of that product name (two words or more). */
  wholeProductName: 5,
} as const;

type Role = 'manufacturer' | 'retailer' | 'importer' | 'distributor';

const LIGATURES: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th' };

/**
 * Lowercase words without diacritics or punctuation: "&" is "and", apostrophes and dots vanish
 * ("Children's" → "childrens", "L.L.C." → "llc"), any other punctuation separates words.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđþ]/g, (c) => LIGATURES[c] ?? c)
    .replace(/&|\+/g, ' and ')
    .replace(/['’‘`´.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Legal forms that say nothing about who a company is; removed from the end, repeatedly. */
const COMPANY_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'co',
  'company',
  'corp',
  'corporation',
  'llc',
  'ltd',
  'limited',
  'lp',
  'llp',
  'plc',
  'gmbh',
  'ag',
  'sa',
  'bv',
  'nv',
  'pty',
  'pte',
  'srl',
  'sarl',
]);

/**
 * A company or brand name normalised for comparison: normalizeText without a leading "The",
 * trailing legal forms (Inc., Co., LLC, Ltd., Corp., Company, Corporation, …), or a place after
 * ", of" as CPSC notices write it ("Cozy Cradle Inc., of Austin, Texas").
 */
export function normalizeCompany(name: string): string {
  const words = normalizeText(name.replace(/,\s*of\s.*$/is, '')).split(' ');
  if (words[0] === 'the' && words.length > 1) words.shift();
  while (words.length > 1 && COMPANY_SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

/** The names a company goes by: "A Inc. d/b/a B" is both A and B. */
function companyAliases(name: string): string[] {
  return name
    .split(/\s+(?:d\/b\/a|dba|doing business as)\s+/i)
    .map((n) => n.trim())
    .filter(Boolean);
}

/** Brands that name no one: never compared. */
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

/**
 * Words too common among children's products to say two names are of the same product, and the
 * small words of English. A shared "baby" or "set" is no evidence.
 */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'or',
  'with',
  'without',
  'for',
  'of',
  'in',
  'on',
  'to',
  'by',
  'from',
  'new',
  'used',
  'set',
  'pack',
  'piece',
  'kit',
  'bundle',
  'baby',
  'infant',
  'newborn',
  'kid',
  'child',
  'childrens',
  'toddler',
  'junior',
  'model',
  'item',
  'style',
  'size',
  'color',
  'colour',
  'mini',
  'small',
  'medium',
  'large',
  'one',
  'two',
  'three',
]);

/** A word reduced to a comparable stem: plurals count as the singular ("cribs" = "crib"). */
function stem(word: string): string {
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The words of a product name that can be evidence, stemmed, in order, without repeats. */
export function meaningfulWords(name: string): string[] {
  const out: string[] = [];
  for (const word of normalizeText(name).split(' ')) {
    const s = stem(word);
    // A bare number ("3 pack", "60 pieces") is no evidence; model numbers are matched apart.
    if (s.length < 2 || /^\d+$/.test(s) || STOP_WORDS.has(s) || out.includes(s)) continue;
    out.push(s);
  }
  return out;
}

const compact = (normalized: string) => normalized.replace(/ /g, '');

/**
 * Whether a compact string is specific enough to be a model number: four characters or more with a
 * digit, and five or more when it is digits only (so a year, "2024", is not one).
 */
function isModelLike(model: string): boolean {
  if (model.length < 4 || !/\d/.test(model)) return false;
  return /[a-z]/.test(model) || model.length >= 5;
}

/**
 * The model numbers in a product's Model field as published ("CC-200, CC-300 and 1234-5678";
 * "Model SR 3000"): each with its text as published and its compact form ("cc200").
 */
export function modelNumbers(field: string): { text: string; key: string }[] {
  const found = new Map<string, string>();
  for (const piece of field.split(/[,;/|]|\s(?:and|or|&)\s/i)) {
    // Runs joined by - or . are one model ("CC-200", "12.34"); spaces separate runs.
    const runs = piece.match(/[\p{L}\p{N}]+(?:[-.][\p{L}\p{N}]+)*/gu) ?? [];
    runs.forEach((run, i) => {
      const key = compact(normalizeText(run.replace(/[-.]/g, '')));
      if (isModelLike(key) && !found.has(key)) found.set(key, run);
      // "SR 3000": a short run of capitals before one that starts with a digit is part of it
      // (capitals only, so "size 12M" or "Age 3" is not a model).
      const next = runs[i + 1];
      if (next && /^\p{Lu}{1,4}$/u.test(run) && /^\p{N}/u.test(next)) {
        const joined = compact(normalizeText(`${run}${next.replace(/[-.]/g, '')}`));
        if (isModelLike(joined) && !found.has(joined)) found.set(joined, `${run} ${next}`);
      }
    });
  }
  return [...found].map(([key, text]) => ({ key, text }));
}

/**
 * The compact forms of every run of one to four consecutive words of a name, so a model number
 * written "CC-200", "CC 200" or "cc200" in an item's name is found.
 */
function nameWindows(name: string): Set<string> {
  const words = normalizeText(name.replace(/[-.]/g, ' ')).split(' ').filter(Boolean);
  const windows = new Set<string>();
  for (let i = 0; i < words.length; i += 1) {
    let joined = '';
    for (let j = i; j < Math.min(words.length, i + 4); j += 1) {
      joined += words[j];
      windows.add(joined);
    }
  }
  return windows;
}

/** Whether `words` holds `part` as consecutive whole words. */
function containsWords(words: string[], part: string[]): boolean {
  if (part.length === 0 || part.length > words.length) return false;
  outer: for (let i = 0; i + part.length <= words.length; i += 1) {
    for (let j = 0; j < part.length; j += 1) if (words[i + j] !== part[j]) continue outer;
    return true;
  }
  return false;
}

interface PreparedCompany {
  role: Role;
  raw: string;
  words: string[];
  key: string;
}

interface PreparedProduct {
  raw: string;
  /** normalizeCompany's words, for finding a brand in the name. */
  nameWords: string[];
  meaningful: string[];
}

interface PreparedRecall {
  recallId: number;
  companies: PreparedCompany[];
  products: PreparedProduct[];
  models: { text: string; key: string }[];
}

interface PreparedItem {
  itemId: string;
  brandRaw: string | null;
  /** Compact brand ("cozycradle"), or null when the item has no brand that names anyone. */
  brandKey: string | null;
  brandWords: string[];
  /** The name's meaningful words, less the brand's. */
  words: string[];
  windows: Set<string>;
}

function prepareRecall(recall: MatchableRecall): PreparedRecall {
  const companies: PreparedCompany[] = [];
  const roles: [Role, string[]][] = [
    ['manufacturer', recall.manufacturers],
    ['importer', recall.importers],
    ['distributor', recall.distributors],
    ['retailer', recall.retailers],
  ];
  for (const [role, names] of roles) {
    for (const raw of names) {
      for (const alias of companyAliases(raw)) {
        const normalized = normalizeCompany(alias);
        if (normalized) companies.push({ role, raw, words: normalized.split(' '), key: compact(normalized) });
      }
    }
  }
  const products: PreparedProduct[] = [];
  const models = new Map<string, { text: string; key: string }>();
  for (const product of recall.products) {
    if (product.name?.trim()) {
      products.push({
        raw: product.name.trim(),
        nameWords: normalizeText(product.name).split(' ').filter(Boolean),
        meaningful: meaningfulWords(product.name),
      });
    }
    for (const model of product.model ? modelNumbers(product.model) : []) {
      if (!models.has(model.key)) models.set(model.key, model);
    }
  }
  return { recallId: recall.recallId, companies, products, models: [...models.values()] };
}

function prepareItem(item: MatchableItem): PreparedItem {
  const brand = item.brand?.trim() ? normalizeCompany(item.brand) : '';
  const named = !NO_BRAND.has(brand);
  const brandWords = named ? brand.split(' ') : [];
  const brandStems = new Set(brandWords.map(stem));
  return {
    itemId: item.itemId,
    brandRaw: named ? item.brand!.trim() : null,
    brandKey: named ? compact(brand) : null,
    brandWords,
    words: meaningfulWords(item.itemName).filter((w) => !brandStems.has(w)),
    windows: nameWindows(item.itemName),
  };
}

/** A brand short or plain enough to be a word of other names ("Co", "Kids") is only compared whole. */
const brandFitsInNames = (item: PreparedItem) =>
  item.brandKey !== null &&
  item.brandKey.length >= 4 &&
  (item.brandWords.length > 1 || !STOP_WORDS.has(stem(item.brandWords[0]!)));

const quoted = (text: string) => `“${text}”`;

function productWordsPoints(shared: number): number {
  const table = MATCH_POINTS.productWords;
  return table[Math.min(shared, table.length - 1)]!;
}

/** The score of one item against one recall, with the terms that matched (best evidence of each kind). */
function scorePrepared(item: PreparedItem, recall: PreparedRecall): { score: number; terms: string[] } {
  const terms: string[] = [];
  let score = 0;

  // The brand: the best of being a company's name, or being inside one or a product's name.
  if (item.brandKey !== null) {
    let best: { points: number; term: string } | null = null;
    const consider = (points: number, term: string) => {
      if (!best || points > best.points) best = { points, term };
    };
    const brand = quoted(item.brandRaw!);
    for (const company of recall.companies) {
      if (company.key === item.brandKey) {
        const points =
          company.role === 'retailer' ? MATCH_POINTS.brandIsRetailer : MATCH_POINTS.brandIsCompany;
        consider(points, `brand ${brand} = ${company.role} ${quoted(company.raw)}`);
      } else if (brandFitsInNames(item) && containsWords(company.words, item.brandWords)) {
        const points = Math.min(
          MATCH_POINTS.brandInName,
          company.role === 'retailer' ? MATCH_POINTS.brandIsRetailer : MATCH_POINTS.brandInName,
        );
        consider(points, `brand ${brand} in ${company.role} ${quoted(company.raw)}`);
      }
    }
    if (brandFitsInNames(item)) {
      for (const product of recall.products) {
        if (containsWords(product.nameWords, item.brandWords)) {
          consider(MATCH_POINTS.brandInName, `brand ${brand} in product ${quoted(product.raw)}`);
        }
      }
    }
    const found = best as { points: number; term: string } | null;
    if (found) {
      score += found.points;
      terms.push(found.term);
    }
  }

  // A model number in the item's name.
  const model = recall.models.find((m) => item.windows.has(m.key));
  if (model) {
    score += MATCH_POINTS.model;
    terms.push(`model ${quoted(model.text)} in the name`);
  }

  // Words of the item's name shared with one product name: the product that shares the most.
  let bestProduct: { points: number; term: string } | null = null;
  for (const product of recall.products) {
    const shared = item.words.filter((w) => product.meaningful.includes(w));
    if (shared.length === 0) continue;
    let points = productWordsPoints(shared.length);
    // The whole product name (less the brand) is in the item's name.
    const productOwn = product.meaningful.filter((w) => !item.brandWords.map(stem).includes(w));
    if (shared.length >= 2 && shared.length === productOwn.length) points += MATCH_POINTS.wholeProductName;
    if (!bestProduct || points > bestProduct.points) {
      bestProduct = {
        points,
        term: `name shares ${quoted(shared.join(' '))} with product ${quoted(product.raw)}`,
      };
    }
  }
  if (bestProduct) {
    score += bestProduct.points;
    terms.push(bestProduct.term);
  }

  return { score: Math.min(100, score), terms };
}

/** One item against one recall, whatever the score (for tests and explanations). */
export function scoreMatch(item: MatchableItem, recall: MatchableRecall): { score: number; terms: string[] } {
  return scorePrepared(prepareItem(item), prepareRecall(recall));
}

export interface Matcher {
  /** The recalls an item may be a product of, scoring at least the minimum, highest first. */
  match: (item: MatchableItem) => MatchCandidate[];
}

/**
 * Indexes the recalls once (company names, the words of company and product names, model
 * numbers), so each item is compared only with the recalls that share something with it.
 */
export function createMatcher(recalls: MatchableRecall[], minScore = RECALL_MATCH_MIN_SCORE): Matcher {
  const prepared = recalls.map(prepareRecall);
  const byCompany = new Map<string, number[]>();
  const byNameWord = new Map<string, number[]>();
  const byModel = new Map<string, number[]>();
  /** Every product of every recall, by its place in `products`; the recall it belongs to beside it. */
  const productRecall: number[] = [];
  const byProductWord = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, value: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [value]);
    else if (list[list.length - 1] !== value) list.push(value);
  };
  prepared.forEach((recall, r) => {
    for (const company of recall.companies) {
      add(byCompany, company.key, r);
      for (const word of company.words) add(byNameWord, word, r);
    }
    for (const model of recall.models) add(byModel, model.key, r);
    for (const product of recall.products) {
      const p = productRecall.push(r) - 1;
      for (const word of product.nameWords) add(byNameWord, word, r);
      for (const word of product.meaningful) add(byProductWord, word, p);
    }
  });
  const counts = new Uint16Array(productRecall.length);

  // The fewest shared words a product name needs to reach the minimum score on its own.
  let wordsAlone = Infinity;
  for (let n = 1; n <= 32; n += 1) {
    if (productWordsPoints(n) + (n >= 2 ? MATCH_POINTS.wholeProductName : 0) >= minScore) {
      wordsAlone = n;
      break;
    }
  }

  function match(raw: MatchableItem): MatchCandidate[] {
    const item = prepareItem(raw);
    const candidates = new Set<number>();
    if (item.brandKey !== null) {
      for (const r of byCompany.get(item.brandKey) ?? []) candidates.add(r);
      if (brandFitsInNames(item)) {
        // The brand's rarest word finds every name that could hold the whole brand.
        let rarest: number[] | undefined;
        for (const word of item.brandWords) {
          const list = byNameWord.get(word) ?? [];
          if (!rarest || list.length < rarest.length) rarest = list;
        }
        for (const r of rarest ?? []) candidates.add(r);
      }
    }
    for (const window of item.windows) for (const r of byModel.get(window) ?? []) candidates.add(r);
    if (item.words.length >= wordsAlone) {
      const touched: number[] = [];
      for (const word of item.words) {
        for (const p of byProductWord.get(word) ?? []) {
          if (counts[p] === 0) touched.push(p);
          counts[p] = counts[p]! + 1;
        }
      }
      for (const p of touched) {
        if (counts[p]! >= wordsAlone) candidates.add(productRecall[p]!);
        counts[p] = 0;
      }
    }
    const found: MatchCandidate[] = [];
    for (const r of candidates) {
      const recall = prepared[r]!;
      const { score, terms } = scorePrepared(item, recall);
      if (score >= minScore) found.push({ itemId: raw.itemId, recallId: recall.recallId, score, terms });
    }
    return found.sort((a, b) => b.score - a.score || a.recallId - b.recallId);
  }

  return { match };
}
