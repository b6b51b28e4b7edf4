// npm run bench:screening [-- <listings> <recalls>] — 10,000 generated listings (a seeded random
// source: about a third carry something a rule looks for, the rest are clean) screened by the
// rules (api/screening/rules.ts), then matched against 10,000 recalls (the sample feed in
// content/recalls.json and generated ones in the same shape, about the real feed's count) by the
// recall matcher (api/recalls/match.ts). Prints the time and rate of each step and the process's
// memory before and after. Target: rules and recall matching of 10,000 listings in under 30 s.
import fs from 'node:fs';
import { parseRecallFeed } from '../../api/recalls/feed.ts';
import { createMatcher, type MatchableRecall } from '../../api/recalls/match.ts';
import { type RuleInput, screenListingRules, strongestOutcome } from '../../api/screening/rules.ts';
import { machine, mib } from './lib.ts';

const TARGET_MS = 30_000;
const listingCount = Number(process.argv[2] ?? 10_000);
const recallCount = Number(process.argv[3] ?? 10_000);
if (!Number.isInteger(listingCount) || listingCount < 1)
  throw new Error('listings: a whole number of at least 1');
if (!Number.isInteger(recallCount) || recallCount < 1)
  throw new Error('recalls: a whole number of at least 1');

// ---- A seeded random source, so every run screens the same listings ----

let seed = 25;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const BRANDS = [
  'Graco',
  'Evenflo',
  'Chicco',
  'Fisher-Price',
  'Summer Infant',
  'Kolcraft',
  'Delta Children',
  'Baby Trend',
  'Munchkin',
  'Skip Hop',
  'Boppy',
  'Nuna',
  'UPPAbaby',
  'Britax',
  'LEGO',
  'VTech',
  'Little Tikes',
  'IKEA',
  'Melissa & Doug',
  'Maple Grove Toys',
  'Café Bébé',
  'SafeRide',
  'Nestwood',
  'Wanderlite',
];
const AGES = [
  '0-6 months',
  '6-12 months',
  '12-18 months',
  '1-2 years',
  '2-3 years',
  '2-4 years',
  '3-5 years',
  '4+ years',
  '5+ years',
  'All Ages',
  '0-3 years',
  '6 months+',
  null,
];
const CONDITIONS = ['new', 'like_new', 'good', 'good', 'fair', 'as-is', null];

/** Listings a rule looks for: [name, category, extra words for the description]. */
const TRIGGERING: [string, string, string][] = [
  ['Braided crib bumper, grey', 'furniture', 'Matches the nursery.'],
  ['Inclined reflux sleeper', 'gear', 'Helped with reflux.'],
  ['Drop-side crib, solid wood', 'furniture', 'Sturdy and heavy.'],
  ['Solid wood crib', 'furniture', 'Converts to a toddler bed.'],
  ['High chair, tray latch broken, as is', 'gear', 'Still usable.'],
  ['Baby bean bag for newborns', 'gear', 'Soft and cosy.'],
  ['Anti-roll baby wedge', 'gear', 'Keeps baby on the back.'],
  ['Weighted sleep sack', 'clothing', 'Calming.'],
  ['Neodymium ball set, 216 pieces', 'toys', 'Stress relief desk toy.'],
  ['Vintage Jarts set', 'toys', 'Garage find.'],
  ['Seated baby walker', 'gear', 'Made in 2008.'],
  ['Bath ring with suction cups', 'gear', 'One suction cup missing.'],
  ["Boys' hoodie with drawstring", 'clothing', 'Size 5T.'],
  ['Baltic amber teething necklace', 'health', 'Genuine amber.'],
  ['LEGO City fire station', 'toys', 'All pieces included.'],
  ['Bouncy balls, 6 pack, 1.25 in', 'toys', 'Bright colours.'],
  ['Light-up rattle', 'toys', 'Battery door missing.'],
  ['1970s painted wooden pull toy', 'toys', 'Family heirloom.'],
  ['Convertible car seat', 'gear', 'Small fender-bender last year.'],
  ['Convertible car seat', 'gear', 'Made 2014.'],
  ["Kids' bike helmet", 'toys', 'Small crack from a fall.'],
  ['Used electric breast pump', 'health', 'Cleaned.'],
  ['Extra-thick pad for pack n play', 'gear', 'Memory foam.'],
  ['Bunk bed', 'furniture', 'One guardrail missing.'],
  ['High-back booster seat', 'gear', 'Made 2023.'],
  ['Bassinet', 'furniture', 'Rocks gently.'],
];
const CLEAN: [string, string][] = [
  ['Organic cotton romper set', 'clothing'],
  ['Knitted winter cardigan', 'clothing'],
  ['Waterproof puddle suit', 'clothing'],
  ['Party dress with tulle skirt', 'clothing'],
  ['Wooden stacking rainbow', 'toys'],
  ['Shape sorter cube', 'toys'],
  ['Jigsaw puzzle bundle (4 puzzles)', 'toys'],
  ['Balance board', 'toys'],
  ['Play kitchen with accessories', 'toys'],
  ['Board book bundle (10 books)', 'books'],
  ['Illustrated fairy tale treasury', 'books'],
  ['First words flash cards', 'books'],
  ['Video baby monitor', 'gear'],
  ['Bottle warmer', 'gear'],
  ['Nursery glider chair', 'furniture'],
  ['Kids bookshelf, forward-facing', 'furniture'],
  ['Toddler table and two chairs', 'furniture'],
  ['Crib sheet 2-pack', 'furniture'],
  ['Car seat travel bag', 'gear'],
  ['Magnetic drawing board', 'toys'],
];
const SENTENCES = [
  'Smoke-free, pet-free home.',
  'Gently used by one child.',
  'Washed and ready to go.',
  'Pick-up only, near the park.',
  'Some signs of wear, see photos.',
  'Comes with the original box.',
  'Bought new two years ago.',
  'No stains, no tears.',
  'Works perfectly.',
  'Great for a growing family.',
];
const paragraph = (count: number) => Array.from({ length: count }, () => pick(SENTENCES)).join(' ');

function generateListing(): RuleInput {
  const brand = random() < 0.8 ? pick(BRANDS) : null;
  const base = {
    brand,
    condition: pick(CONDITIONS),
    ageGroup: pick(AGES),
    manufactureYear: random() < 0.4 ? int(2005, 2026) : null,
  };
  if (random() < 0.35) {
    const [name, category, words] = pick(TRIGGERING);
    return { ...base, itemName: name, category, description: `${paragraph(int(1, 4))} ${words}` };
  }
  const [name, category] = pick(CLEAN);
  return { ...base, itemName: name, category, description: paragraph(int(1, 6)) };
}

// ---- Recalls: the sample feed, and generated ones in its shape up to the count ----

const PRODUCTS = [
  'Convertible Car Seat',
  'Infant Car Seat',
  'Full-Size Crib',
  'Bassinet',
  'Portable Play Yard',
  'Jogging Stroller',
  'High Chair',
  'Baby Bouncer',
  'Infant Swing',
  'Inclined Sleeper',
  'Teething Toy',
  'Building Set',
  "Children's Hooded Sweatshirt",
  'Six-Drawer Dresser',
  'Space Heater',
  'Pressure Cooker',
  'Power Bank',
  'Mountain Bicycle',
  'Window Blind',
  'Hair Dryer',
];
const SUFFIXES = ['Inc.', 'LLC', 'Co.', 'Corp.', 'Ltd.', ''];
const RETAILERS = ['Walmart', 'Target', 'Amazon.com', 'buybuy BABY', 'Kohl’s', 'Costco', 'Wayfair'];

/** A recall of a generated product; one in 20 by a brand the listings use (about 20 recalls a brand). */
function generateRecall(recallId: number): MatchableRecall {
  const brand =
    random() < 0.05 ? pick(BRANDS) : `${pick(['Acme', 'Sunny', 'Bright', 'Nova', 'Tiny'])} ${int(1, 400)}`;
  const product = pick(PRODUCTS);
  return {
    recallId,
    products: Array.from({ length: random() < 0.7 ? 1 : int(2, 5) }, () => ({
      name: `${brand} ${product}`,
      model: random() < 0.1 ? null : `${brand.slice(0, 2).toUpperCase()}-${int(100, 9999)}`,
    })),
    manufacturers: [`${brand} ${pick(SUFFIXES)}`.trim()],
    retailers: Array.from({ length: int(0, 3) }, () => pick(RETAILERS)),
    importers: random() < 0.05 ? [`${pick(BRANDS)} Imports LLC`] : [],
    distributors: [],
  };
}

const sample: MatchableRecall[] = parseRecallFeed(
  JSON.parse(fs.readFileSync('content/recalls.json', 'utf8')),
).map(({ recallId, lists }) => ({
  recallId,
  products: lists.products.map((p) => ({ name: p.name, model: p.model })),
  manufacturers: lists.manufacturers.map((c) => c.name),
  retailers: lists.retailers.map((c) => c.name),
  importers: lists.importers.map((c) => c.name),
  distributors: lists.distributors.map((c) => c.name),
}));

// ---- The bench ----

console.log(`bench:screening on ${machine()}, ${new Date().toISOString()}`);
const listings = Array.from({ length: listingCount }, generateListing);
const recalls = [
  ...sample,
  ...Array.from({ length: Math.max(0, recallCount - sample.length) }, (_, i) => generateRecall(1_000 + i)),
];
console.log(
  `Generated ${listingCount.toLocaleString('en-US')} listings and ${recalls.length.toLocaleString('en-US')} recalls (${sample.length} from content/recalls.json).`,
);

global.gc?.();
const before = process.memoryUsage();
const now = new Date();

let started = performance.now();
const outcomes = { pass: 0, note: 0, flag: 0, block: 0 };
let findings = 0;
for (const listing of listings) {
  const found = screenListingRules(listing, { now });
  findings += found.length;
  outcomes[strongestOutcome(found)] += 1;
}
const rulesMs = performance.now() - started;

started = performance.now();
const matcher = createMatcher(recalls);
const indexMs = performance.now() - started;
started = performance.now();
let candidates = 0;
listings.forEach((listing, i) => {
  candidates += matcher.match({
    itemId: `bench-${i}`,
    itemName: listing.itemName,
    brand: listing.brand,
  }).length;
});
const matchMs = performance.now() - started;
const after = process.memoryUsage();

const totalMs = rulesMs + indexMs + matchMs;
const rate = (ms: number) => Math.round(listingCount / (ms / 1000)).toLocaleString('en-US');
console.table([
  { step: 'rules', ms: Math.round(rulesMs), 'listings/s': rate(rulesMs), found: `${findings} findings` },
  { step: 'recall index', ms: Math.round(indexMs), 'listings/s': '', found: `${recalls.length} recalls` },
  {
    step: 'recall matching',
    ms: Math.round(matchMs),
    'listings/s': rate(matchMs),
    found: `${candidates} candidates`,
  },
  { step: 'total', ms: Math.round(totalMs), 'listings/s': rate(totalMs), found: '' },
]);
console.log(
  `Outcomes: ${outcomes.block} block, ${outcomes.flag} flag, ${outcomes.note} note, ${outcomes.pass} pass.`,
);
console.log(
  `Memory: RSS ${mib(before.rss)} → ${mib(after.rss)}, heap used ${mib(before.heapUsed)} → ${mib(after.heapUsed)}.`,
);
console.log(
  `Target: under ${TARGET_MS / 1000} s for ${listingCount.toLocaleString('en-US')} listings: ${totalMs < TARGET_MS ? 'met' : 'NOT met'}.`,
);
