// The listing screening rules (api/screening/rules.ts, rule-base.ts; docs/product.md, "Listing
// screening"): for every rule a listing that triggers it and near-misses that must not, the
// signal found in each field, negations, dates against the cutoffs, ages, and hostile input.
import { describe, expect, it } from 'vitest';
import { RULES } from '../../api/screening/rule-base.ts';
import {
  type RuleFinding,
  type RuleInput,
  RULES_VERSION,
  screenListingRules,
  strongestOutcome,
  suggestedAgeGroup,
} from '../../api/screening/rules.ts';
import { isNegated, fieldText, findPhrase, parseAgeGroup, phraseStems } from '../../api/screening/text.ts';

const NOW = new Date('2026-11-28T12:00:00Z');

const listing = (itemName: string, fields: Partial<RuleInput> = {}): RuleInput => ({
  itemName,
  category: 'gear',
  condition: 'good',
  brand: null,
  ageGroup: null,
  description: null,
  manufactureYear: null,
  ...fields,
});

const screen = (input: RuleInput, region?: 'US' | 'CA' | 'EU') =>
  screenListingRules(input, { now: NOW, region });
const outcomesOf = (findings: RuleFinding[], rule: string) =>
  findings.filter((f) => f.rule === rule).map((f) => f.outcome);

type Case = [rule: string, outcome: 'block' | 'flag' | 'note', input: RuleInput];

// Each rule's trigger: the listing and the outcome it must give (among the rule's findings).
const TRIGGERS: Case[] = [
  ['R1', 'block', listing('Braided crib bumper, grey', { category: 'furniture' })],
  [
    'R1',
    'block',
    listing('Crib bedding set', { description: 'Quilt, sheet and padded bumper, all matching.' }),
  ],
  ['R1', 'block', listing('Vinyl slat covers for crib')],
  ['R1', 'note', listing('Breathable mesh crib liner')],
  ['R2', 'block', listing('Inclined reflux sleeper 0-6 m')],
  ['R2', 'block', listing("Rock 'n Play Sleeper", { brand: 'Fisher-Price' })],
  ['R2', 'flag', listing('Baby nest, cotton', { ageGroup: '0-6 months' })],
  ['R3', 'block', listing('Drop-side crib, solid wood', { category: 'furniture' })],
  ['R3', 'block', listing('Solid wood crib', { manufactureYear: 2010 })],
  ['R3', 'flag', listing('Solid wood crib', { manufactureYear: 2011 })],
  ['R3', 'flag', listing('Solid wood crib')],
  ['R3', 'flag', listing('Antique spindle crib')],
  ['R4', 'block', listing('High chair, tray latch broken, as is')],
  ['R4', 'block', listing('Portable play yard', { description: 'One leg is cracked but it still stands.' })],
  ['R4', 'block', listing('Jogging stroller', { condition: 'as-is' })],
  ['R4', 'flag', listing('High chair with tray', { condition: 'fair' })],
  ['R4', 'flag', listing('Baby gate, label missing')],
  ['R5', 'block', listing('Baby bean-bag for newborns')],
  ['R5', 'block', listing('Bean bag chair', { ageGroup: '0-6 months' })],
  ['R5', 'flag', listing('Newborn lounger, grey')],
  ['R5', 'note', listing('Nursing pillow with cover', { brand: 'Boppy' })],
  ['R6', 'block', listing('Anti-roll baby wedge')],
  ['R6', 'block', listing('Infant sleep positioner')],
  ['R7', 'flag', listing('Weighted sleep sack 6-12 m')],
  ['R7', 'note', listing('Weighted sleep sack 6-12 m')],
  ['R7', 'flag', listing('Weighted blanket', { ageGroup: '1-2 years' })],
  ['R8', 'block', listing('5 mm neodymium ball set, stress relief')],
  ['R8', 'block', listing('Desk toy set of 216', { brand: 'Buckyballs' })],
  ['R8', 'flag', listing('Magnetic animal blocks', { description: 'One magnet fell out of the cow.' })],
  ['R9', 'block', listing('Vintage Jarts set')],
  ['R9', 'block', listing('Outdoor game', { description: 'Classic lawn darts with two rings.' })],
  ['R10', 'flag', listing('Seated baby walker, 2008')],
  ['R10', 'flag', listing('Activity walker')],
  ['R10', 'note', listing('Baby walker', { manufactureYear: 2019 })],
  ['R11', 'flag', listing('Bath ring, one suction cup missing')],
  ['R11', 'note', listing('Bath seat with suction cups')],
  ['R12', 'block', listing("Boys' hoodie 5T with drawstring", { category: 'clothing' })],
  [
    'R12',
    'block',
    listing('Winter parka', {
      category: 'clothing',
      ageGroup: '4-5 years',
      description: 'Fur hood with toggle cord.',
    }),
  ],
  ['R12', 'flag', listing('Fleece jacket with drawstring hood', { category: 'clothing' })],
  ['R12', 'note', listing('Cotton pajamas', { category: 'clothing', ageGroup: '2-3 years' })],
  ['R13', 'block', listing('Baltic amber teething necklace')],
  ['R13', 'block', listing('Teething bracelet, wooden beads', { ageGroup: '0-6 months' })],
  ['R14', 'flag', listing('LEGO City set', { category: 'toys', ageGroup: '1-2 years' })],
  ['R14', 'flag', listing('City Police Station', { category: 'toys', brand: 'LEGO', ageGroup: 'All Ages' })],
  ['R14', 'flag', listing('Playmobil farm', { category: 'toys' })],
  ['R14', 'block', listing('Mini figures for toddlers', { category: 'toys', ageGroup: '1-2 years' })],
  ['R15', 'block', listing('6 bouncy balls 1.25 in', { category: 'toys', ageGroup: '1-2 years' })],
  ['R15', 'flag', listing('Glass marbles, 50', { category: 'toys', ageGroup: '2-4 years' })],
  ['R15', 'note', listing('Glass marbles, 50', { category: 'toys', ageGroup: '5+ years' })],
  ['R15', 'note', listing('Party balloons, 30 pack', { category: 'toys', ageGroup: '4+ years' })],
  [
    'R16',
    'flag',
    listing('Light-up rattle, battery door missing', { category: 'toys', ageGroup: '0-6 months' }),
  ],
  [
    'R16',
    'flag',
    listing('Musical book', { description: 'Takes LR44 button batteries; the cover is taped on.' }),
  ],
  ['R16', 'note', listing('Light-up musical cube', { category: 'toys', ageGroup: '6-12 months' })],
  ['R17', 'flag', listing('1970s painted wooden pull toy', { category: 'toys' })],
  ['R17', 'flag', listing('Die-cast metal car', { category: 'toys', manufactureYear: 2005 })],
  [
    'R17',
    'flag',
    listing("Girls' charm bracelet, silver tone metal", { category: 'clothing', brand: 'unbranded' }),
  ],
  ['R18', 'block', listing('Convertible seat, small fender-bender')],
  ['R18', 'block', listing('Convertible car seat', { manufactureYear: 2014 })],
  ['R18', 'block', listing('Infant car seat', { description: 'Expires 2024, otherwise great.' })],
  ['R18', 'flag', listing('Convertible car seat', { manufactureYear: 2019 })],
  ['R18', 'flag', listing('Convertible car seat')],
  [
    'R18',
    'flag',
    listing('Booster seat, high back', { condition: 'fair', manufactureYear: 2024, ageGroup: '5+ years' }),
  ],
  ['R18', 'note', listing('Convertible car seat', { manufactureYear: 2024 })],
  ['R19', 'block', listing("Kids' helmet, small crack from a fall")],
  ['R19', 'note', listing('Bike helmet, blue', { ageGroup: '5+ years' })],
  ['R20', 'flag', listing('Used electric breast pump, cleaned', { category: 'health' })],
  ['R20', 'note', listing('Electric breast pump', { category: 'health', condition: 'good' })],
  ['R21', 'flag', listing('Extra-thick pad for pack n play')],
  ['R21', 'note', listing('Crib mattress, firm', { category: 'furniture' })],
  ['R22', 'flag', listing('Bunk bed, one guardrail missing', { category: 'furniture' })],
  ['R22', 'flag', listing('Wooden bunk bed', { category: 'furniture', manufactureYear: 1998 })],
  ['R22', 'note', listing('Six-drawer dresser', { category: 'furniture' })],
  ['R23', 'flag', listing('High-back booster', { ageGroup: '0-6 months' })],
  ['R23', 'flag', listing('Infant car seat', { ageGroup: '4+ years', manufactureYear: 2024 })],
  ['R24', 'flag', listing('Bassinet', { ageGroup: '2-4 years', category: 'furniture' })],
  ['R24', 'flag', listing('Baby walker', { ageGroup: '4+ years', manufactureYear: 2020 })],
];

// Near-misses: a listing that must give no finding of the rule.
const NEAR_MISSES: [rule: string, input: RuleInput][] = [
  ['R1', listing('Furniture corner bumper guards', { category: 'health' })],
  ['R1', listing('Crib bedding set, bumper not included', { category: 'furniture' })],
  ['R1', listing('Crib bedding set', { description: 'Quilt and fitted sheet, no bumper.' })],
  ['R1', listing('Bumper-free crib bedding set')],
  ['R2', listing('Bouncer seat')],
  ['R2', listing('Baby nest, cotton', { ageGroup: '2-4 years' })],
  ['R3', listing('Crib sheet 2-pack', { category: 'furniture' })],
  ['R3', listing('Convertible crib', { manufactureYear: 2016 })],
  ['R3', listing('Doll crib, wooden', { category: 'toys' })],
  ['R4', listing('Stroller, faded canopy, all parts')],
  ['R4', listing('High chair', { description: 'Nothing missing, never broken.' })],
  ['R4', listing('Play kitchen', { category: 'toys', condition: 'fair' })],
  ['R4', listing('Stroller', { description: 'Original box missing, otherwise complete.' })],
  ['R5', listing("Kids' bean bag chair, 4+")],
  ['R5', listing('Bean bag toss game', { ageGroup: '0-6 months', category: 'toys' })],
  ['R6', listing('Pregnancy wedge pillow', { category: 'health' })],
  ['R7', listing('Halo sleep sack (not weighted)', { category: 'clothing' })],
  ['R7', listing('Weighted blanket', { ageGroup: '8+ years' })],
  ['R8', listing('Magnetic drawing board', { category: 'toys' })],
  ['R8', listing('Magnetic Tile Set (60 pieces)', { category: 'toys', ageGroup: '3+ years' })],
  ['R9', listing('Nerf darts', { category: 'toys' })],
  ['R9', listing('Startsmart soccer set', { category: 'toys' })],
  ['R10', listing('Push walker wagon', { category: 'toys' })],
  ['R10', listing('Sit-to-stand learning walker', { category: 'toys' })],
  ['R11', listing('Infant bathtub')],
  ['R12', listing('Hoodie, drawstring removed', { category: 'clothing', ageGroup: '4-5 years' })],
  ['R12', listing('Hooded jacket without drawstring', { category: 'clothing', ageGroup: '5+ years' })],
  ['R13', listing('Silicone teether ring', { ageGroup: '0-6 months' })],
  ['R14', listing('LEGO DUPLO farm', { category: 'toys', ageGroup: '1-2 years' })],
  ['R14', listing('LEGO City set', { category: 'toys', ageGroup: '5+ years' })],
  ['R14', listing('Wooden bead maze', { category: 'toys', ageGroup: '1-2 years' })],
  [
    'R14',
    listing('Board book bundle', { category: 'books', ageGroup: '0-3 years', description: 'Ages 3+ too.' }),
  ],
  ['R15', listing('Size 3 soccer ball', { category: 'toys', ageGroup: '1-2 years' })],
  ['R15', listing('Marble run', { category: 'toys', ageGroup: '5+ years' })],
  ['R16', listing('Ride-on car, 12V', { category: 'toys', ageGroup: '3-5 years' })],
  ['R17', listing('2021 wooden puzzle, new', { category: 'toys' })],
  ['R17', listing('Vintage board books', { category: 'books' })],
  ['R18', listing('Car seat travel bag')],
  ['R18', listing('Car seat cover, waterproof')],
  ['R19', listing('Helmet stickers', { category: 'toys' })],
  ['R19', listing('Bike lights', { category: 'toys' })],
  ['R20', listing('Breast pump, new sealed', { category: 'health', condition: 'new' })],
  ['R21', listing('Crib sheet', { category: 'furniture' })],
  ['R22', listing('Toddler bed', { category: 'furniture' })],
  ['R23', listing('Convertible seat', { ageGroup: '1-2 years' })],
  ['R23', listing('High-back booster', { ageGroup: '5+ years' })],
  ['R24', listing('Bassinet', { ageGroup: '0-6 months', category: 'furniture' })],
  ['R24', listing('Push walker', { ageGroup: '1-2 years', category: 'toys' })],
  ['R25', listing('Baby walker', { manufactureYear: 2019 })],
];

describe('each rule', () => {
  it.each(TRIGGERS)('%s gives %s for %o', (rule, outcome, input) => {
    expect(outcomesOf(screen(input), rule)).toContain(outcome);
  });

  it.each(NEAR_MISSES)('%s is not triggered by %o', (rule, input) => {
    expect(outcomesOf(screen(input), rule)).toEqual([]);
  });

  it('has a trigger and a near-miss for every rule R1–R24', () => {
    const ids = RULES.map((r) => r.id).filter((id) => id !== 'R25');
    expect(ids).toHaveLength(24);
    for (const id of ids) {
      expect(
        TRIGGERS.some(([rule]) => rule === id),
        id,
      ).toBe(true);
      expect(
        NEAR_MISSES.some(([rule]) => rule === id),
        id,
      ).toBe(true);
    }
  });
});

describe('the rule base', () => {
  it('gives every rule an id, a title, texts and a source that is an address or null', () => {
    expect(RULES.map((r) => r.id)).toEqual(Array.from({ length: 25 }, (_, i) => `R${i + 1}`));
    for (const rule of RULES) {
      expect(rule.title.length).toBeGreaterThan(0);
      expect(rule.branches.length).toBeGreaterThan(0);
      if (rule.source !== null) expect(rule.source).toMatch(/^https?:\/\/\S+$/);
      for (const branch of rule.branches) expect(branch.text.length).toBeGreaterThan(10);
    }
  });

  it('gives every finding a rule, an outcome, a text and the source of its rule', () => {
    for (const [, , input] of TRIGGERS) {
      for (const finding of screen(input)) {
        const rule = RULES.find((r) => r.id === finding.rule);
        expect(rule, finding.rule).toBeDefined();
        expect(['block', 'flag', 'note']).toContain(finding.outcome);
        expect(finding.text).toBeTruthy();
        expect(finding.source).toBe(rule!.source);
      }
    }
  });

  it('has a version that the findings are stored with', () => {
    expect(RULES_VERSION).toMatch(/^\d+-[0-9a-f]{8}$/);
  });
});

describe('clean listings', () => {
  it.each([
    listing('Organic Cotton Romper Set', {
      category: 'clothing',
      condition: 'like_new',
      ageGroup: '0-6 months',
    }),
    listing('Wooden Stacking Rainbow', {
      category: 'toys',
      ageGroup: '1-3 years',
      brand: 'Maple Grove Toys',
    }),
    listing('Jigsaw Puzzle Bundle (4 puzzles)', { category: 'toys', ageGroup: '4-7 years' }),
    listing('Board Book Bundle (10 books)', { category: 'books', ageGroup: '0-3 years', brand: 'Various' }),
  ])('gives nothing for %o', (input) => {
    const findings = screen(input);
    expect(findings).toEqual([]);
    expect(strongestOutcome(findings)).toBe('pass');
  });
});

describe('where the signal is', () => {
  it('reads the description, the brand and the category', () => {
    expect(
      outcomesOf(screen(listing('Bedding set', { description: 'Matching crib bumper included.' })), 'R1'),
    ).toEqual(['block']);
    expect(outcomesOf(screen(listing('Desk toy', { brand: 'Buckyballs' })), 'R8')).toEqual(['block']);
    expect(outcomesOf(screen(listing('Graco Extend2Fit', { category: 'Car Seats' })), 'R18')).toContain(
      'note',
    );
  });

  it('reads the condition: fair on a durable infant product, not on a toy', () => {
    expect(outcomesOf(screen(listing('Baby swing', { condition: 'fair' })), 'R4')).toEqual(['flag']);
    expect(outcomesOf(screen(listing('Baby swing', { condition: 'good' })), 'R4')).toEqual([]);
    expect(outcomesOf(screen(listing('Toy drum', { condition: 'fair', category: 'toys' })), 'R4')).toEqual(
      [],
    );
  });

  it('takes the age from a size or the words when the age group is empty', () => {
    const hoodie = (name: string) => outcomesOf(screen(listing(name, { category: 'clothing' })), 'R12');
    expect(hoodie('Hoodie with drawstring, 2T')).toEqual(['block']);
    expect(hoodie('Hoodie with drawstring')).toEqual(['flag']);
  });

  it('matches whole words only', () => {
    expect(outcomesOf(screen(listing('Startsmart darts board', { category: 'toys' })), 'R9')).toEqual([]);
    expect(outcomesOf(screen(listing('Jarts', { category: 'toys' })), 'R9')).toEqual(['block']);
    expect(outcomesOf(screen(listing('Legolas costume', { category: 'clothing' })), 'R14')).toEqual([]);
  });
});

describe('negation', () => {
  it.each([
    ['no bumper', true],
    ['bumper not included', true],
    ['bumper (not included)', true],
    ['bumpers have been removed', true],
    ['without a bumper', true],
    ['bumper-free', true],
    ['bumper sold separately', true],
    ['no stains, crib bumper', false],
    ['crib bumper, tags removed', false],
    ['never used. bumper included', false],
  ])('"%s": denied %s', (text, denied) => {
    const fields = [fieldText(text)];
    const [span] = findPhrase(fields, phraseStems('bumper'));
    expect(isNegated(fields, span!)).toBe(denied);
  });

  it('keeps a car seat that was never in a crash', () => {
    const findings = screen(
      listing('Convertible car seat', { manufactureYear: 2024, description: 'Never been in an accident.' }),
    );
    expect(outcomesOf(findings, 'R18')).toEqual(['note']);
  });
});

describe('dates', () => {
  it('blocks a crib made in 2010, flags one of 2011 or no year, passes one of 2012', () => {
    const crib = (manufactureYear: number | null) =>
      outcomesOf(screen(listing('Wooden crib', { manufactureYear })), 'R3');
    expect(crib(2010)).toEqual(['block']);
    expect(crib(2011)).toEqual(['flag']);
    expect(crib(null)).toEqual(['flag']);
    expect(crib(2012)).toEqual([]);
    expect(screen(listing('Wooden crib')).find((f) => f.rule === 'R3')!.text).toMatch(
      /manufacture date and model number/,
    );
  });

  it('reads a year in the words when the field is empty', () => {
    expect(outcomesOf(screen(listing('Wooden crib, made in 2009')), 'R3')).toEqual(['block']);
  });

  it('ages car seats against the day given', () => {
    const seat = (manufactureYear: number, now: Date) =>
      strongestOutcome(screenListingRules(listing('Convertible car seat', { manufactureYear }), { now }));
    expect(seat(2020, new Date('2024-01-01T00:00:00Z'))).toBe('note');
    expect(seat(2020, new Date('2027-01-01T00:00:00Z'))).toBe('flag');
    expect(seat(2020, new Date('2031-06-01T00:00:00Z'))).toBe('block');
  });
});

describe('ages', () => {
  it.each([
    ['0-6 months', { min: 0, max: 6 }],
    ['1-2 years', { min: 12, max: 24 }],
    ['6 months - 2 years', { min: 6, max: 24 }],
    ['3+ years', { min: 36, max: Infinity }],
    ['6 months+', { min: 6, max: Infinity }],
    ['0+ months', { min: 0, max: Infinity }],
    ['All Ages', { min: 0, max: Infinity }],
    ['5T', { min: 60, max: 71 }],
    ['Toddler size 7', { min: 12, max: 48 }],
    ['whatever', null],
  ])('reads "%s"', (text, range) => {
    expect(parseAgeGroup(text)).toEqual(range);
  });

  it('blocks small balls under 3 and flags them where the age straddles 3 or is unknown', () => {
    const balls = (ageGroup: string | null) =>
      outcomesOf(screen(listing('Bouncy balls, 6 pack', { category: 'toys', ageGroup })), 'R15');
    expect(balls('12-18 months')).toEqual(['block']);
    expect(balls('2-4 years')).toEqual(['flag']);
    expect(balls('All Ages')).toEqual(['flag']);
    expect(balls(null)).toEqual(['flag']);
    expect(balls('3-5 years')).toEqual(['note']);
  });

  it('suggests a better age group and says so', () => {
    const lego = listing('LEGO City set', { category: 'toys', ageGroup: '1-2 years' });
    expect(suggestedAgeGroup(lego, { now: NOW })).toBe('3+ years');
    expect(screen(lego).find((f) => f.rule === 'R14')!.text).toMatch(/List it for 3\+ years/);
    expect(suggestedAgeGroup(listing('High-back booster', { ageGroup: '0-6 months' }), { now: NOW })).toBe(
      '4+ years',
    );
    expect(suggestedAgeGroup(listing('Bassinet', { ageGroup: '2-4 years' }), { now: NOW })).toBe(
      '0-6 months',
    );
    expect(
      suggestedAgeGroup(listing('Organic Cotton Romper Set', { category: 'clothing' }), { now: NOW }),
    ).toBeNull();
  });
});

describe('regions', () => {
  it('blocks baby walkers in Canada only', () => {
    const walker = listing('Baby walker', { manufactureYear: 2019 });
    expect(outcomesOf(screen(walker, 'CA'), 'R25')).toEqual(['block']);
    expect(outcomesOf(screen(walker, 'EU'), 'R25')).toEqual([]);
    expect(outcomesOf(screen(walker), 'R25')).toEqual([]);
  });
});

describe('strongestOutcome', () => {
  it('orders block over flag over note over pass', () => {
    const f = (outcome: RuleFinding['outcome']): RuleFinding => ({
      rule: 'R1',
      outcome,
      text: 't',
      source: null,
    });
    expect(strongestOutcome([])).toBe('pass');
    expect(strongestOutcome([f('note')])).toBe('note');
    expect(strongestOutcome([f('note'), f('flag')])).toBe('flag');
    expect(strongestOutcome([f('flag'), f('block'), f('note')])).toBe('block');
  });
});

describe('hostile input', () => {
  it('takes NUL characters, lone surrogates and control characters', () => {
    const findings = screen(
      listing('Crib\u0000 bumper\uD800, grey\u0007', {
        brand: '\uDFFF',
        description: '\u0000\u0000',
        ageGroup: '\uD800',
      }),
    );
    expect(outcomesOf(findings, 'R1')).toEqual(['block']);
  });

  it('takes a megabyte of description', () => {
    const description = `${'A well loved crib bumper, no stains. '.repeat(28_000)}\uD800`;
    expect(description.length).toBeGreaterThan(1_000_000);
    const findings = screen(listing('Crib bedding set', { description }));
    expect(outcomesOf(findings, 'R1')).toEqual(['block']);
  });

  it('takes odd values where types promise strings', () => {
    const odd = {
      ...listing('Crib'),
      category: undefined,
      brand: 42,
      manufactureYear: Number.NaN,
    } as unknown as RuleInput;
    expect(() => screen(odd)).not.toThrow();
  });
});
