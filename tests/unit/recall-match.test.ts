// Matching items against recalls (api/recalls/match.ts; docs/product.md, "Recall screening"):
// hits and near-misses, each named by what it shows, and the speed of a whole check.
import { describe, expect, it } from 'vitest';
import { RECALL_MATCH_MIN_SCORE } from '../../api/contract.ts';
import {
  createMatcher,
  type MatchableItem,
  type MatchableRecall,
  modelNumbers,
  normalizeCompany,
  normalizeText,
  scoreMatch,
} from '../../api/recalls/match.ts';

const recall = (fields: Partial<MatchableRecall> & { recallId?: number } = {}): MatchableRecall => ({
  recallId: 1,
  products: [],
  manufacturers: [],
  retailers: [],
  importers: [],
  distributors: [],
  ...fields,
});

const item = (itemName: string, brand: string | null = null): MatchableItem => ({
  itemId: 'item-1',
  itemName,
  brand,
});

const CRIB = recall({
  recallId: 10,
  products: [{ name: 'Cozy Cradle Convertible Crib', model: 'CC-200, CC-300 and 4471-B' }],
  manufacturers: ['Cozy Cradle Inc., of Austin, Texas'],
  retailers: ['Toddler Town'],
});

/** Whether the matcher raises the item against the recall. */
const raised = (it: MatchableItem, r: MatchableRecall) =>
  createMatcher([r])
    .match(it)
    .some((m) => m.recallId === r.recallId);

describe('normalising names', () => {
  it('ignores case, punctuation, diacritics and apostrophes, and reads "&" as "and"', () => {
    expect(normalizeText('Crème-Brûlée & Co’s BABY!')).toBe('creme brulee and cos baby');
    expect(normalizeText('Straße Ørsted')).toBe('strasse orsted');
  });

  it('drops company suffixes, a leading "The" and the place CPSC notices add', () => {
    for (const name of [
      'Cozy Cradle Inc.',
      'Cozy Cradle, LLC',
      'Cozy Cradle L.L.C.',
      'The Cozy Cradle Company',
      'Cozy Cradle Corp.',
      'Cozy Cradle Corporation',
      'Cozy Cradle Co., Ltd.',
      'COZY CRADLE INC., of Austin, Texas',
    ]) {
      expect(normalizeCompany(name), name).toBe('cozy cradle');
    }
  });

  it('keeps a suffix word when it is the whole name', () => {
    expect(normalizeCompany('The Company')).toBe('company');
  });

  it('reads every model number of a Model field, however it is written', () => {
    expect(modelNumbers('Models CC-200, CC-300 and 4471-B; SR 3000 / 12345').map((m) => m.key)).toEqual([
      'cc200',
      'cc300',
      '4471b',
      'sr3000',
      '12345',
    ]);
  });

  it('does not take a year, a size or a short number for a model number', () => {
    expect(modelNumbers('2024 edition, size 12M, 3 pack')).toEqual([]);
  });
});

describe('hits', () => {
  it('brand and product words: the brand is the manufacturer and the name shares the product', () => {
    const found = scoreMatch(item('Convertible Crib, barely used', 'Cozy Cradle'), CRIB);
    expect(found.score).toBeGreaterThanOrEqual(RECALL_MATCH_MIN_SCORE);
    expect(found.terms).toEqual([
      'brand “Cozy Cradle” = manufacturer “Cozy Cradle Inc., of Austin, Texas”',
      'name shares “convertible crib” with product “Cozy Cradle Convertible Crib”',
    ]);
    expect(raised(item('Convertible Crib, barely used', 'Cozy Cradle'), CRIB)).toBe(true);
  });

  it('suffix variants: brand "Cozy Cradle LLC" is manufacturer "Cozy Cradle Inc."', () => {
    expect(raised(item('Crib', 'Cozy Cradle LLC'), CRIB)).toBe(true);
  });

  it('"&" vs "and": brand "Sit & Sup" is manufacturer "Sit and Sup Corp."', () => {
    const chair = recall({
      products: [{ name: 'Wooden High Chair', model: null }],
      manufacturers: ['Sit and Sup Corp.'],
    });
    const found = scoreMatch(item('High Chair with Tray', 'Sit & Sup'), chair);
    expect(found.terms[0]).toBe('brand “Sit & Sup” = manufacturer “Sit and Sup Corp.”');
    expect(raised(item('High Chair with Tray', 'Sit & Sup'), chair)).toBe(true);
  });

  it('punctuation and spacing: brand "Cozy-Cradle" and "CozyCradle" are "Cozy Cradle Inc."', () => {
    expect(raised(item('Convertible crib', 'Cozy-Cradle'), CRIB)).toBe(true);
    expect(raised(item('Convertible crib', 'CozyCradle'), CRIB)).toBe(true);
  });

  it('diacritics: brand "Bébé Doux" is manufacturer "Bebe Doux SARL"', () => {
    const bouncer = recall({
      products: [{ name: 'Baby Bouncer Seat', model: null }],
      manufacturers: ['Bebe Doux SARL'],
    });
    expect(raised(item('Bouncer', 'Bébé Doux'), bouncer)).toBe(true);
  });

  it('plurals: "cribs" in the recall is "crib" in the name', () => {
    const cribs = recall({
      products: [{ name: 'Drop-side cribs', model: null }],
      manufacturers: ['Nestwood'],
    });
    expect(raised(item('Drop side crib', 'Nestwood'), cribs)).toBe(true);
  });

  it('a model number in the name is enough on its own, however it is written', () => {
    for (const name of ['Crib CC-200', 'crib cc 200', 'CC200 crib', 'Crib model 4471B']) {
      const found = scoreMatch(item(name, 'Someone Else'), CRIB);
      expect(found.score, name).toBeGreaterThanOrEqual(RECALL_MATCH_MIN_SCORE);
      expect(
        found.terms.some((t) => t.startsWith('model “')),
        name,
      ).toBe(true);
    }
    expect(scoreMatch(item('Crib CC-200', null), CRIB).terms).toContain('model “CC-200” in the name');
  });

  it('brand and a model number score highest', () => {
    const both = scoreMatch(item('Cozy Cradle crib CC-300', 'Cozy Cradle'), CRIB).score;
    const brandAndWords = scoreMatch(item('Convertible crib', 'Cozy Cradle'), CRIB).score;
    expect(both).toBeGreaterThan(brandAndWords);
    expect(both).toBeLessThanOrEqual(100);
  });

  it('the brand in a product name counts as the brand: "Cozy Cradle" in "Cozy Cradle Convertible Crib"', () => {
    const noMaker = recall({ products: [{ name: 'Cozy Cradle Convertible Crib', model: null }] });
    const found = scoreMatch(item('Crib', 'Cozy Cradle'), noMaker);
    expect(found.terms[0]).toBe('brand “Cozy Cradle” in product “Cozy Cradle Convertible Crib”');
    expect(found.score).toBeGreaterThanOrEqual(RECALL_MATCH_MIN_SCORE);
  });

  it('a brand inside a longer company name: "Graco" in "Graco Children\'s Products Inc."', () => {
    const seat = recall({
      products: [{ name: 'Infant car seats', model: null }],
      manufacturers: ["Graco Children's Products Inc."],
    });
    expect(scoreMatch(item('Car Seat', 'Graco'), seat).terms[0]).toBe(
      "brand “Graco” in manufacturer “Graco Children's Products Inc.”",
    );
    expect(raised(item('Car Seat', 'Graco'), seat)).toBe(true);
  });

  it('a company that does business under another name: the brand is the "d/b/a" name', () => {
    const lamp = recall({
      products: [{ name: 'Projector night lamp', model: null }],
      importers: ['Bright Trading Ltd. d/b/a Glowbug'],
    });
    expect(raised(item('Starry Night Projector Lamp', 'Glowbug'), lamp)).toBe(true);
  });

  it('the whole product name in the item name, without the brand, just reaches the minimum', () => {
    const sleeper = recall({
      products: [{ name: 'Incline Rocking Sleeper Bassinet', model: null }],
      manufacturers: ['Dreamy Ltd.'],
    });
    const found = scoreMatch(item('Rocking sleeper, incline bassinet', 'Unbranded'), sleeper);
    expect(found.score).toBe(RECALL_MATCH_MIN_SCORE);
    expect(raised(item('Rocking sleeper, incline bassinet', 'Unbranded'), sleeper)).toBe(true);
  });
});

describe('near-misses', () => {
  it('same brand, different product: a brand alone is not enough', () => {
    const found = scoreMatch(item('Video Baby Monitor', 'Cozy Cradle'), CRIB);
    expect(found.score).toBeGreaterThan(0);
    expect(found.score).toBeLessThan(RECALL_MATCH_MIN_SCORE);
    expect(raised(item('Video Baby Monitor', 'Cozy Cradle'), CRIB)).toBe(false);
  });

  it('the brand only as a retailer, with one shared word, is not enough', () => {
    expect(raised(item('Crib sheet', 'Toddler Town'), CRIB)).toBe(false);
  });

  it('unrelated products sharing one common word', () => {
    const crib = recall({
      products: [{ name: 'Portable Crib', model: null }],
      manufacturers: ['Far Away Inc.'],
    });
    expect(scoreMatch(item('Crib Mobile with Stars', 'Glowbug'), crib).score).toBeLessThan(
      RECALL_MATCH_MIN_SCORE,
    );
    expect(raised(item('Crib Mobile with Stars', 'Glowbug'), crib)).toBe(false);
  });

  it('a product name match alone is borderline: two or three shared words are not enough', () => {
    const seat = recall({
      products: [{ name: 'Apex Convertible Car Seat', model: null }],
      manufacturers: ['Apex Juvenile LLC'],
    });
    const found = scoreMatch(item('Convertible Car Seat', 'SafeRide'), seat);
    expect(found.terms).toEqual([
      'name shares “convertible car seat” with product “Apex Convertible Car Seat”',
    ]);
    expect(found.score).toBeLessThan(RECALL_MATCH_MIN_SCORE);
    expect(raised(item('Convertible Car Seat', 'SafeRide'), seat)).toBe(false);
  });

  it('words every children\'s product has ("baby", "set", "kids") are no evidence', () => {
    const set = recall({
      products: [{ name: 'Baby Kids Toddler Set', model: null }],
      manufacturers: ['Other Co.'],
    });
    expect(scoreMatch(item('Baby toddler kids set', 'Little Sprout'), set).score).toBe(0);
  });

  it('a brand that is one word of another company\'s name: "Little" is not "Little Tikes"', () => {
    const car = recall({ products: [{ name: 'Cozy Coupe', model: null }], manufacturers: ['Little Tikes'] });
    // Too short and plain to be looked for inside other names; it would match "Little" anything.
    expect(scoreMatch(item('Cozy coupe ride-on', 'Kids'), car).terms.some((t) => t.startsWith('brand'))).toBe(
      false,
    );
    expect(scoreMatch(item('Ride-on', 'Tikes Toys'), car).score).toBe(0);
  });

  it('"Various" and other non-brands match no company', () => {
    const books = recall({ products: [{ name: 'Board books', model: null }], manufacturers: ['Various'] });
    expect(
      scoreMatch(item('Board Book Bundle (10 books)', 'Various'), books).terms.some((t) =>
        t.startsWith('brand'),
      ),
    ).toBe(false);
  });

  it('a number in the name that is not the model: "60 pieces" is not model "60-PC"', () => {
    const tiles = recall({
      products: [{ name: 'Magnet blocks', model: '60-PC' }],
      manufacturers: ['Far Away'],
    });
    expect(raised(item('Magnetic Tile Set (60 pieces)', 'BrightBuild'), tiles)).toBe(false);
  });

  it('a model number inside a longer number is not that model', () => {
    const r = recall({ products: [{ name: 'Stroller', model: '12345' }] });
    expect(scoreMatch(item('Stroller 1234567', null), r).terms.some((t) => t.startsWith('model'))).toBe(
      false,
    );
  });

  it('a recall with missing names and models matches nothing', () => {
    const empty = recall({ products: [{ name: null, model: null }], manufacturers: [] });
    expect(scoreMatch(item('Convertible Crib', 'Cozy Cradle'), empty)).toEqual({ score: 0, terms: [] });
  });
});

describe('the matcher over many recalls', () => {
  it('finds the same matches as scoring every pair, highest score first', () => {
    const recalls = [
      CRIB,
      recall({
        recallId: 11,
        products: [{ name: 'Cozy Cradle Bassinet', model: 'CB-1' }],
        manufacturers: ['Cozy Cradle'],
      }),
      recall({
        recallId: 12,
        products: [{ name: 'Rocking sleeper', model: 'RS-9000' }],
        manufacturers: ['Other'],
      }),
    ];
    const items = [
      item('Convertible Crib and Bassinet', 'Cozy Cradle'),
      item('Sleeper RS-9000', null),
      item('Nursery Glider Chair', 'RockaBye'),
    ];
    const matcher = createMatcher(recalls);
    for (const it of items) {
      const expected = recalls
        .map((r) => ({ recallId: r.recallId, ...scoreMatch(it, r) }))
        .filter((m) => m.score >= RECALL_MATCH_MIN_SCORE)
        .sort((a, b) => b.score - a.score || a.recallId - b.recallId)
        .map((m) => ({ itemId: it.itemId, ...m }));
      expect(matcher.match(it)).toEqual(expected);
    }
    expect(matcher.match(items[0]!).map((m) => m.recallId)).toEqual([10, 11]);
  });
});
