// The listing screening rules as data (docs/product.md, "Listing screening"): what each rule looks
// for, the outcome and the words a parent or moderator reads, and the regulation or agency page it
// rests on. The engine (./rules.ts) reads this and nothing else; a rule changes here, not there.
//
// Phrases are whole words, compared without case, accents or plurals ("Crib Bumpers" = "crib
// bumper"); a phrase the listing denies ("no bumper", "drawstring removed") does not count.

export type Outcome = 'block' | 'flag' | 'note';
export type Region = 'US' | 'CA' | 'EU';
export type TextField = 'name' | 'brand' | 'category' | 'description';
/** Where a listing's age range lies against a line in months: all below, all at or above, both, or no age. */
export type AgeClass = 'under' | 'over' | 'straddles' | 'unknown';
/** Whether a listing was made before a date: a year alone equal to the date's is `ambiguous`. */
export type MadeClass = 'before' | 'after' | 'ambiguous' | 'unknown';

/** What must hold of a listing for a branch to apply; every field given must hold. */
export interface When {
  /** The listing is one of these product types (PRODUCT_TYPES). */
  types?: string[];
  /** … and none of these. */
  notTypes?: string[];
  /** A phrase of these, not denied, in the listing's words (all fields, or `fields`). */
  any?: string[];
  fields?: TextField[];
  /** Phrases that contain a signal without being it ("missing label" is not "missing" parts). */
  except?: string[];
  /** … and also a phrase of these, not denied, anywhere ("reflux" with "sleeper"). */
  also?: string[];
  /** … and none of these anywhere, denied or not ("mesh", "pregnancy"). */
  none?: string[];
  /** The listing's condition is one of these (lowercase, spaces for - and _). */
  conditions?: string[];
  /** The listing's age range against a line in months. */
  age?: { line: number; is: AgeClass[] };
  /** The manufacture date against a cutoff (YYYY-MM-DD). */
  made?: { before: string; is: MadeClass[] };
  /** Made at least / at most this many years before today (year alone); unknown years never match. */
  yearsOld?: { min?: number; max?: number };
  /** No manufacture year known (and, for car seats, no expiry year stated). */
  undated?: boolean;
  /** An expiry year stated in the words has passed. */
  expired?: boolean;
  /** No size stated, or one of at most this many millimetres. */
  sizeAtMostMm?: number;
  /** The brand is empty or names no one ("unbranded", "generic"). */
  unbranded?: boolean;
  /** Applies only with one of these region settings (otherwise in every region). */
  regions?: Region[];
}

export interface Branch {
  outcome: Outcome;
  /** What a parent or moderator reads: plain, short and specific. */
  text: string;
  when: When;
  /** A better age group for the listing; the text says so. */
  suggestAge?: string;
  /** Look on at the rule's next branches after this one applies (a note beside a block or flag). */
  alsoNext?: boolean;
}

export interface ScreeningRule {
  id: string;
  title: string;
  /** The regulation or agency page, or null where the rule is our own policy or has no page. */
  source: string | null;
  /** What the rule is about; branches are tried in order and the first that applies ends the rule. */
  when?: When;
  branches: Branch[];
}

export interface ProductType {
  id: string;
  /** Names of the product: in the listing's name or category (its description when they name none). */
  names: string[];
  /** Longer names that are another product ("travel cot" is not a cot). */
  except?: string[];
  /** A durable infant product (CPSC): it carries a permanent label with maker, model and date. */
  durable?: boolean;
}

/** Manufacture dates from which a product meets its standard (or falls under a ban). */
export const CUTOFFS = {
  crib: '2011-06-28',
  walker: '2010-12-21',
  bathSeat: '2010-12-06',
  bassinet: '2014-04-23',
  playYard: '2014-02-19',
  bunkBed: '2000-06-19',
  lead: '2011-08-14',
  infantSleep: '2022-06-23',
  magnets: '2022-10-21',
  buttonCell: '2023-10-23',
  dresser: '2023-09-01',
  nursingPillow: '2025-04-23',
  infantSupportCushion: '2025-05-05',
  canadaCrib: '1986-09-01',
  canadaCarSeat: '2012-01-01',
} as const;

/** Months: the first three years, where small parts and small balls are banned. */
export const UNDER_3 = 36;

/**
 * The word after a product's name that makes it something else: a "crib sheet" is a sheet, a "car
 * seat travel bag" a bag, "helmet stickers" stickers. Looked for up to two words after the name.
 */
export const ACCESSORY_WORDS = [
  'sheet',
  'bag',
  'cover',
  'sticker',
  'decal',
  'mattress',
  'pad',
  'bumper',
  'skirt',
  'mobile',
  'toy',
  'bedding',
  'liner',
  'blanket',
  'organizer',
  'organiser',
  'mirror',
  'protector',
  'insert',
  'canopy',
  'hook',
  'strap',
  'manual',
  'adapter',
  'tent',
  'net',
  'light',
  'soother',
  'guard',
  'wedge',
  'pillow',
  'extender',
  'fan',
  'clip',
  'cushion',
  'holder',
  'tray',
  'wheel',
  'book',
  'lock',
  'mount',
  'poster',
  'rack',
  'caddy',
  'basket',
  'shade',
  'sunshade',
  'footmuff',
  'topper',
  'saver',
  'kit',
  'part',
  'spare',
  'replacement',
  'accessory',
  'charm',
  'pattern',
  'costume',
];

/** A word before a product's name that makes it a plaything: a "doll crib", a "toy stroller". */
export const PLAYTHING_WORDS = [
  'doll',
  'dolls',
  'toy',
  'dollhouse',
  'pretend',
  'miniature',
  'barbie',
  'lego',
];

export const PRODUCT_TYPES: ProductType[] = [
  {
    id: 'crib',
    names: ['crib', 'cot', 'cot bed', 'cradle'],
    except: ['travel cot', 'camp cot', 'camping cot', 'portable crib', 'crib mattress'],
    durable: true,
  },
  { id: 'bassinet', names: ['bassinet', 'moses basket', 'bedside sleeper'], durable: true },
  {
    id: 'play yard',
    names: [
      'play yard',
      'playard',
      'pack n play',
      'pack and play',
      'playpen',
      'play pen',
      'travel cot',
      'portable crib',
    ],
    durable: true,
  },
  { id: 'high chair', names: ['high chair', 'highchair'], durable: true },
  { id: 'gate', names: ['baby gate', 'safety gate', 'stair gate', 'gate'], durable: true },
  {
    id: 'stroller',
    names: ['stroller', 'pram', 'pushchair', 'buggy', 'travel system', 'jogger'],
    durable: true,
  },
  {
    id: 'walker',
    names: ['baby walker', 'activity walker', 'infant walker', 'seated walker', 'sit in walker', 'walker'],
    except: ['push walker', 'walker wagon', 'sit to stand walker', 'learning walker', 'push along walker'],
    durable: true,
  },
  {
    id: 'swing',
    names: ['baby swing', 'infant swing', 'swing'],
    except: ['swing set', 'tree swing'],
    durable: true,
  },
  { id: 'bouncer', names: ['bouncer', 'bouncy seat', 'baby rocker', 'infant rocker'], durable: true },
  {
    id: 'carrier',
    names: ['baby carrier', 'infant carrier', 'carrier', 'sling', 'baby wrap'],
    except: ['pet carrier', 'cat carrier', 'dog carrier', 'bike carrier'],
    durable: true,
  },
  { id: 'bed rail', names: ['bed rail', 'bedrail', 'bed guard'], durable: true },
  { id: 'changing table', names: ['changing table', 'changing station', 'change table'], durable: true },
  { id: 'bath seat', names: ['bath seat', 'bath ring', 'bathtub seat', 'bath chair'], durable: true },
  {
    id: 'infant bathtub',
    names: ['infant bathtub', 'baby bathtub', 'infant tub', 'baby bath tub'],
    durable: true,
  },
  { id: 'toddler bed', names: ['toddler bed'], durable: true },
  {
    id: 'car seat',
    names: [
      'car seat',
      'carseat',
      'convertible seat',
      'booster',
      'booster seat',
      'high back booster',
      'backless booster',
      'all in one seat',
    ],
    except: [
      'dining booster',
      'feeding booster',
      'booster seat for table',
      'booster seat for the table',
      'booster seat for dining',
      'booster seat for eating',
      'booster for dining',
      'table booster',
      'chair booster',
    ],
  },
  { id: 'helmet', names: ['helmet', 'bike helmet', 'bicycle helmet'] },
  { id: 'breast pump', names: ['breast pump', 'breastpump'] },
  {
    id: 'crib mattress',
    names: ['crib mattress', 'play yard mattress', 'pack n play mattress', 'bassinet mattress'],
  },
  {
    id: 'dresser',
    names: [
      'dresser',
      'chest of drawers',
      'chest of drawer',
      'tallboy',
      'armoire',
      'wardrobe',
      'changing dresser',
    ],
  },
  { id: 'bunk bed', names: ['bunk bed', 'bunkbed', 'loft bed', 'bunk'] },
  {
    id: 'outerwear',
    names: [
      'hoodie',
      'hoody',
      'hooded',
      'jacket',
      'parka',
      'coat',
      'sweatshirt',
      'windbreaker',
      'anorak',
      'raincoat',
      'snowsuit',
      'fleece',
      'cardigan',
      'vest',
    ],
  },
  {
    id: 'sleepwear',
    names: [
      'pajama',
      'pajamas',
      'pyjama',
      'pyjamas',
      'pj',
      'pjs',
      'sleepwear',
      'nightgown',
      'nightie',
      'onesie pajama',
    ],
  },
  // What the small-parts ban exempts: books, clothing, crayons, balloons, feeding items, rattles, pacifiers.
  { id: 'book', names: ['book', 'board book', 'books'] },
  { id: 'exempt', names: ['crayon', 'balloon', 'pacifier', 'rattle', 'bottle', 'sippy cup', 'spoon', 'bib'] },
];

/** The listing's category names a product type. */
export const CATEGORY_TYPES: Record<string, string> = {
  books: 'book',
  'books and media': 'book',
  clothing: 'clothing',
  'clothing and shoes': 'clothing',
  toys: 'toy',
  'toys and games': 'toy',
  'car seats': 'car seat',
  cribs: 'crib',
  strollers: 'stroller',
};

/** Durable infant products, for the rule on broken or incomplete ones. */
export const DURABLE_TYPES = PRODUCT_TYPES.filter((t) => t.durable).map((t) => t.id);
/** Where an infant sleeps: cribs, play yards, bassinets. */
const SLEEP_PLACES = [
  'crib',
  'play yard',
  'pack n play',
  'pack and play',
  'playpen',
  'playard',
  'bassinet',
  'travel cot',
  'mini crib',
  'play pen',
];
const CRASH = [
  'crash',
  'crashed',
  'accident',
  'fender bender',
  'collision',
  'rear ended',
  'car wreck',
  'wreck',
];
const UNDATED_ASK = 'Ask the seller for the manufacture date and model number on its label.';

export const RULES: ScreeningRule[] = [
  {
    id: 'R1',
    title: 'Crib bumpers',
    source: 'https://www.law.cornell.edu/uscode/text/15/2057e',
    branches: [
      {
        outcome: 'note',
        text: 'Mesh crib liners are not covered by the US bumper ban, but a bare crib is the safest place for a baby to sleep.',
        when: {
          any: ['mesh liner', 'mesh crib liner', 'breathable liner', 'breathable bumper', 'breathable mesh'],
          also: ['crib', 'cot', 'liner', 'bumper'],
        },
      },
      {
        outcome: 'block',
        text: 'Crib bumpers are banned in the US (Safe Sleep for Babies Act, 2022), whenever they were made.',
        when: {
          any: [
            'crib bumper',
            'cot bumper',
            'bumper pad',
            'braided bumper',
            'slat cover',
            'slat bumper',
            'vinyl bumper',
            'crib rail bumper',
            'bumper set',
          ],
          none: [
            'bumper car',
            'corner bumper',
            'edge bumper',
            'car bumper',
            'bumper sticker',
            'bumper ball',
            'table bumper',
          ],
        },
      },
      {
        outcome: 'block',
        text: 'This bedding comes with a crib bumper; crib bumpers are banned in the US (Safe Sleep for Babies Act, 2022).',
        when: {
          any: ['bumper'],
          also: ['crib', 'cot', 'bedding set', 'bedding', 'nursery set', 'crib set'],
          none: [
            'bumper car',
            'corner',
            'edge',
            'furniture',
            'car bumper',
            'bumper sticker',
            'bumper ball',
            'table bumper',
          ],
        },
      },
    ],
  },
  {
    id: 'R2',
    title: 'Inclined infant sleepers',
    source: 'https://www.govinfo.gov/content/pkg/FR-2023-08-16/html/2023-17350.htm',
    branches: [
      {
        outcome: 'block',
        text: 'Inclined infant sleepers are banned in the US (Safe Sleep for Babies Act, 2022): babies must sleep flat.',
        when: {
          any: [
            'inclined sleeper',
            'incline sleeper',
            'inclined sleep',
            'rock n play',
            'rock and play',
            'rock n play sleeper',
            'inclined bassinet',
            'incline bassinet',
          ],
        },
      },
      {
        outcome: 'block',
        text: 'A reflux sleeper is an inclined sleep product, banned in the US (Safe Sleep for Babies Act, 2022).',
        when: {
          any: ['reflux'],
          also: ['sleep', 'sleeper', 'sleeping', 'bed', 'bassinet', 'napper', 'nap'],
          none: ['pregnancy', 'maternity', 'adult'],
        },
      },
      {
        outcome: 'flag',
        text: 'Baby nests, loungers and in-bed or co-sleepers must meet the US infant sleep product rule (2022); a moderator checks the product and its date.',
        when: {
          any: [
            'baby nest',
            'babynest',
            'sleep nest',
            'dock a tot',
            'dockatot',
            'co sleeper',
            'cosleeper',
            'in bed sleeper',
            'sleep pod',
            'snuggle nest',
            'baby pod',
          ],
          age: { line: 12, is: ['under', 'straddles', 'unknown'] },
        },
      },
    ],
  },
  {
    id: 'R3',
    title: 'Cribs made before the 2011 standard; drop-side cribs',
    source: 'http://www.gpo.gov/fdsys/pkg/FR-2010-12-28/html/2010-32178.htm',
    when: { types: ['crib'] },
    branches: [
      {
        outcome: 'block',
        text: 'Drop-side cribs may not be sold in the US (crib standard of 28 June 2011), immobilizer kit or not.',
        when: { any: ['drop side', 'dropside', 'drop down side', 'drop rail', 'immobilizer', 'immobiliser'] },
      },
      {
        outcome: 'block',
        text: 'Cribs made before 28 June 2011 do not meet the US crib standard and may not be resold.',
        when: { made: { before: CUTOFFS.crib, is: ['before'] } },
      },
      {
        outcome: 'flag',
        text: 'Made in 2011: cribs made before 28 June 2011 may not be resold. Ask for the manufacture date on the label.',
        when: { made: { before: CUTOFFS.crib, is: ['ambiguous'] } },
      },
      {
        outcome: 'flag',
        text: `A vintage or antique crib is very likely older than the US crib standard (28 June 2011). ${UNDATED_ASK}`,
        when: {
          any: ['vintage', 'antique', 'heirloom', 'retro', 'old fashioned'],
          made: { before: CUTOFFS.crib, is: ['unknown'] },
        },
      },
      {
        outcome: 'flag',
        text: `Cribs made before 28 June 2011 may not be resold. ${UNDATED_ASK}`,
        when: { undated: true },
      },
    ],
  },
  {
    id: 'R4',
    title: 'Broken or incomplete durable infant products',
    source: 'https://cpsc.gov/FAQ/ResaleThrift-Stores',
    when: { types: DURABLE_TYPES },
    branches: [
      {
        outcome: 'block',
        text: 'Broken nursery products and ones missing parts may not be resold, even if never recalled.',
        when: {
          any: [
            'missing',
            'broken',
            'broke',
            'cracked',
            'crack',
            'wobbly',
            'wobble',
            'as is',
            'for parts',
            'for spares',
            'not working',
            'doesnt work',
            'does not work',
            'doesnt lock',
            'does not lock',
            'wont lock',
            'snapped',
            'split',
          ],
          except: [
            'missing label',
            'label missing',
            'missing tag',
            'tag missing',
            'missing box',
            'box missing',
            'missing manual',
            'manual missing',
            'missing instructions',
            'instructions missing',
            'as is pictured',
            'as is shown',
          ],
        },
      },
      {
        outcome: 'block',
        text: 'Sold "as is": nursery products that may be broken or missing parts may not be resold.',
        when: { conditions: ['as is', 'for parts', 'poor'] },
      },
      {
        outcome: 'flag',
        text: 'Without its permanent label (maker, model, date) no one can tell whether this product was recalled or meets its standard. A moderator checks.',
        when: {
          any: [
            'missing label',
            'label missing',
            'no label',
            'label removed',
            'label cut off',
            'label torn',
            'label faded',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'In fair condition: a moderator checks the photos for missing, loose or broken parts before it is shown.',
        when: { conditions: ['fair'] },
      },
    ],
  },
  {
    id: 'R5',
    title: 'Infant cushions, loungers and nursing pillows',
    source: 'https://www.cpsc.gov/Newsroom/News-Releases/1992/CPSC-Bans-Infant-Cushions',
    branches: [
      {
        outcome: 'block',
        text: 'Bean bags and soft cushions or pillows for babies under 1 are banned in the US (infant cushion ban, 1992).',
        when: {
          any: [
            'bean bag',
            'beanbag',
            'baby pillow',
            'infant pillow',
            'newborn pillow',
            'infant cushion',
            'baby cushion',
            'baby beanbag',
            'baby bean bag',
          ],
          none: ['nursing pillow', 'pregnancy', 'maternity', 'toss', 'game'],
          age: { line: 13, is: ['under'] },
        },
      },
      {
        outcome: 'block',
        text: 'Soft cushions or pillows for babies under 1 are banned in the US (infant cushion ban, 1992).',
        when: {
          any: [
            'baby pillow',
            'infant pillow',
            'newborn pillow',
            'infant cushion',
            'baby cushion',
            'baby beanbag',
            'baby bean bag',
          ],
          none: ['nursing pillow', 'pregnancy', 'maternity'],
          age: { line: 13, is: ['unknown'] },
        },
      },
      {
        outcome: 'flag',
        text: 'Infant loungers and support cushions must meet the US infant support cushion rule (2025); babies must never sleep in them. A moderator checks the product and its date.',
        when: {
          any: [
            'lounger',
            'infant support cushion',
            'support cushion',
            'support pillow',
            'sit me up',
            'baby sitter cushion',
            'infant seat cushion',
          ],
        },
      },
      {
        outcome: 'note',
        text: 'Nursing pillows are for feeding while awake: never let a baby sleep on or against one.',
        when: { any: ['nursing pillow', 'feeding pillow', 'breastfeeding pillow'] },
      },
    ],
  },
  {
    id: 'R6',
    title: 'Infant sleep positioners',
    source:
      'https://publications.aap.org/aapnews/article/31/11/27/23431/Infant-sleep-positioners-pose-suffocation-risk',
    branches: [
      {
        outcome: 'block',
        text: 'The CPSC and FDA say never to use infant sleep positioners (wedges, anti-roll pillows, bolsters): babies have suffocated in them.',
        when: {
          any: [
            'sleep positioner',
            'sleeping positioner',
            'infant positioner',
            'baby positioner',
            'positioner',
            'anti roll',
            'antiroll',
            'side bolster',
            'sleep wedge',
            'baby wedge',
            'infant wedge',
            'crib wedge',
            'reflux wedge',
            'positioning wedge',
            'positioning pillow',
          ],
          none: ['pregnancy', 'maternity', 'pregnant', 'adult', 'back support', 'leg'],
        },
      },
    ],
  },
  {
    id: 'R7',
    title: 'Weighted infant sleep products',
    source: null,
    branches: [
      {
        outcome: 'flag',
        text: 'The CPSC says not to use weighted blankets or weighted swaddles for babies; large retailers stopped selling them in 2024. A moderator decides.',
        alsoNext: true,
        when: {
          any: [
            'weighted sleep sack',
            'weighted sleepsack',
            'weighted swaddle',
            'weighted sleep bag',
            'weighted sleeper',
            'weighted wearable blanket',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'The CPSC says not to use weighted blankets for babies and toddlers. A moderator decides.',
        alsoNext: true,
        when: { any: ['weighted blanket'], age: { line: UNDER_3, is: ['under', 'straddles', 'unknown'] } },
      },
      {
        outcome: 'note',
        text: 'Never put a baby to sleep in or under a weighted sleep sack, swaddle or blanket.',
        when: {
          any: [
            'weighted sleep sack',
            'weighted sleepsack',
            'weighted swaddle',
            'weighted sleep bag',
            'weighted sleeper',
            'weighted wearable blanket',
          ],
        },
      },
      {
        outcome: 'note',
        text: 'Never put a baby to sleep in or under a weighted sleep sack, swaddle or blanket.',
        when: { any: ['weighted blanket'], age: { line: UNDER_3, is: ['under', 'straddles', 'unknown'] } },
      },
    ],
  },
  {
    id: 'R8',
    title: 'Small high-powered magnets',
    source: null,
    branches: [
      {
        outcome: 'block',
        text: 'Sets of small high-powered magnets are banned in the US (magnet rule, 2022): swallowed magnets pull through the gut.',
        when: {
          any: [
            'buckyball',
            'buckycube',
            'zen magnet',
            'neocube',
            'neodymium ball',
            'neodymium sphere',
            'neodymium magnet ball',
            'magnetic ball',
            'magnet ball',
            'magnetic sphere',
            'magnetic bead',
            'magnet bead',
            'rare earth magnet',
            'neodymium magnet',
            'magnetic piercing',
            'magnetic tongue',
            'magnetic nose ring',
            'fake piercing',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'A magnet has come loose from this item: swallowed magnets are dangerous. A moderator checks.',
        when: {
          any: [
            'magnet fell out',
            'magnets fell out',
            'magnet came out',
            'magnet came loose',
            'loose magnet',
            'magnet loose',
            'magnet missing',
            'missing magnet',
            'magnet exposed',
            'exposed magnet',
          ],
        },
      },
    ],
  },
  {
    id: 'R9',
    title: 'Lawn darts',
    source:
      'https://cpsc.gov/Newsroom/News-Releases/1997/Following-Recent-Injury-CPSC-Reissues-Warning-Lawn-Darts-Are-Banned-and-Should-Be-Destroyed',
    branches: [
      {
        outcome: 'block',
        text: 'Lawn darts have been banned in the US since 1988; the CPSC says to destroy them, not give them away.',
        when: { any: ['lawn dart', 'jart', 'yard dart', 'garden dart', 'lawn jart'] },
      },
    ],
  },
  {
    id: 'R10',
    title: 'Baby walkers',
    source: 'https://www.cpsc.gov/FAQ/Infant-Walkers',
    when: { types: ['walker'] },
    branches: [
      {
        outcome: 'flag',
        text: 'Baby walkers made before 21 December 2010 do not meet the US walker standard. Ask for the manufacture date on the label.',
        alsoNext: true,
        when: { made: { before: CUTOFFS.walker, is: ['before', 'ambiguous', 'unknown'] } },
      },
      {
        outcome: 'note',
        text: 'Keep a baby walker away from stairs and pools, and check its label says it was made after 21 December 2010.',
        when: {},
      },
    ],
  },
  {
    id: 'R11',
    title: 'Bath seats and rings',
    source: null,
    when: { types: ['bath seat'] },
    branches: [
      {
        outcome: 'flag',
        text: 'Suction cups of used bath seats can fail. A moderator checks every cup and that it was made after 6 December 2010 (US standard).',
        alsoNext: true,
        when: {},
      },
      {
        outcome: 'note',
        text: 'Never leave a baby in a bath seat or ring, even for a moment: babies drown in seconds.',
        when: {},
      },
    ],
  },
  {
    id: 'R12',
    title: 'Hood and neck drawstrings; sleepwear',
    source:
      'https://www.cpsc.gov/Business--Manufacturing/Business-Education/Business-Guidance/Drawstrings-in-Childrens-Upper-Outerwear',
    branches: [
      {
        outcome: 'block',
        text: "Hood and neck drawstrings on children's outerwear sizes 2T to 12 are a substantial product hazard in the US: remove the drawstring to sell it.",
        when: {
          types: ['outerwear'],
          any: ['drawstring', 'draw string', 'drawcord', 'draw cord', 'toggle', 'cord'],
          none: ['waist drawstring', 'drawstring waist', 'waist cord'],
          age: { line: 24, is: ['over', 'straddles'] },
        },
      },
      {
        outcome: 'flag',
        text: 'Hood and neck drawstrings are banned on outerwear sizes 2T to 12. A moderator checks the size.',
        when: {
          types: ['outerwear'],
          any: ['drawstring', 'draw string', 'drawcord', 'draw cord', 'toggle', 'cord'],
          age: { line: 24, is: ['unknown'] },
        },
      },
      {
        outcome: 'note',
        text: "Children's sleepwear over 9 months must be flame-resistant or snug-fitting: check the label.",
        when: { types: ['sleepwear'], age: { line: 9, is: ['over', 'straddles', 'unknown'] } },
      },
    ],
  },
  {
    id: 'R13',
    title: 'Teething jewelry',
    source: 'https://publications.aap.org/aapnews/news/9241/FDA-Teething-necklaces-can-lead-to-choking',
    branches: [
      {
        outcome: 'block',
        text: 'The FDA says not to use teething necklaces, bracelets or anklets (amber, wood, marble or silicone): babies have choked and been strangled.',
        when: {
          any: [
            'amber teething',
            'teething necklace',
            'teething bracelet',
            'teething anklet',
            'teething jewelry',
            'teething jewellery',
            'teething bead',
            'amber necklace',
            'amber anklet',
            'amber bracelet',
            'baltic amber',
          ],
        },
      },
    ],
  },
  {
    id: 'R14',
    title: 'Small parts for children under 3',
    source: 'https://www.ecfr.gov/current/title-16/chapter-II/subchapter-C/part-1501',
    when: {
      notTypes: ['book', 'clothing', 'outerwear', 'sleepwear', 'exempt'],
      none: ['duplo', 'mega bloks', 'megabloks'],
    },
    branches: [
      {
        outcome: 'block',
        text: 'Toys with small parts are banned for children under 3 in the US, and this one is offered for babies or toddlers.',
        when: {
          any: [
            'lego',
            'playmobil',
            'mini figure',
            'minifigure',
            'minifig',
            'game piece',
            'small part',
            'small piece',
            'choking hazard',
            'not for children under 3',
            'loose bead',
            'craft bead',
            'bead kit',
            'bead set',
            'beading kit',
            'perler bead',
            'hama bead',
            'pony bead',
          ],
          // Things named after the toy, not sets of its parts.
          except: [
            'lego storage',
            'lego table',
            'lego bin',
            'lego box',
            'lego book',
            'lego shirt',
            'lego costume',
            'lego bag',
          ],
          also: [
            'for babies',
            'for baby',
            'for toddlers',
            'for toddler',
            'for infants',
            'baby toy',
            'toddler toy',
            'infant toy',
            'first toy',
          ],
          age: { line: UNDER_3, is: ['under'] },
        },
      },
      {
        outcome: 'flag',
        text: 'Toys with small parts are banned for children under 3. List it for 3+ years.',
        suggestAge: '3+ years',
        when: {
          any: [
            'lego',
            'playmobil',
            'mini figure',
            'minifigure',
            'minifig',
            'game piece',
            'small part',
            'small piece',
            'choking hazard',
            'not for children under 3',
            'loose bead',
            'craft bead',
            'bead kit',
            'bead set',
            'beading kit',
            'perler bead',
            'hama bead',
            'pony bead',
            '3+',
            'ages 3 and up',
            'age 3 and up',
          ],
          // Things named after the toy, not sets of its parts.
          except: [
            'lego storage',
            'lego table',
            'lego bin',
            'lego box',
            'lego book',
            'lego shirt',
            'lego costume',
            'lego bag',
          ],
          age: { line: UNDER_3, is: ['under', 'straddles', 'unknown'] },
        },
      },
    ],
  },
  {
    id: 'R15',
    title: 'Small balls, marbles and balloons',
    source: null,
    when: { notTypes: ['book', 'clothing'] },
    branches: [
      {
        outcome: 'block',
        text: 'Balls of 1.75 in (44.4 mm) or less and marbles are banned for children under 3 in the US.',
        when: {
          any: [
            'bouncy ball',
            'bounce ball',
            'super ball',
            'superball',
            'rubber ball',
            'small ball',
            'marble',
          ],
          except: ['marble run', 'marble track', 'marble maze'],
          sizeAtMostMm: 44.4,
          age: { line: UNDER_3, is: ['under'] },
        },
      },
      {
        outcome: 'flag',
        text: 'Small balls and marbles are banned for children under 3. A moderator checks the size and the age it is listed for.',
        when: {
          any: [
            'bouncy ball',
            'bounce ball',
            'super ball',
            'superball',
            'rubber ball',
            'small ball',
            'marble',
          ],
          except: ['marble run', 'marble track', 'marble maze'],
          sizeAtMostMm: 44.4,
          age: { line: UNDER_3, is: ['straddles', 'unknown'] },
        },
      },
      {
        outcome: 'note',
        text: 'Small balls and marbles are a choking hazard: keep them from children under 3.',
        when: {
          any: ['bouncy ball', 'bounce ball', 'super ball', 'superball', 'small ball', 'marble'],
          except: ['marble run', 'marble track', 'marble maze'],
          sizeAtMostMm: 44.4,
        },
      },
      {
        outcome: 'note',
        text: 'Balloons are a choking hazard for children under 8: keep uninflated and broken balloons away from them.',
        when: { any: ['balloon'] },
      },
    ],
  },
  {
    id: 'R16',
    title: 'Button and coin batteries',
    source: 'https://www.cpsc.gov/FAQ/Button-Cell-and-Coin-Battery-FAQs',
    branches: [
      {
        outcome: 'flag',
        text: "The battery compartment is not secure: button and coin batteries burn through a child's throat within hours. A moderator checks.",
        when: {
          any: [
            'battery door missing',
            'battery cover missing',
            'missing battery door',
            'missing battery cover',
            'battery door loose',
            'battery cover loose',
            'battery door broken',
            'battery cover broken',
            'battery compartment open',
            'battery door taped',
            'battery cover taped',
            'battery taped',
            'cover taped',
            'taped shut',
            'no battery cover',
            'no battery door',
            'battery cover lost',
            'battery door lost',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'Button and coin batteries must be behind a secured cover. A moderator checks the compartment.',
        when: {
          any: [
            'cr2032',
            'cr2025',
            'cr2016',
            'cr1220',
            'lr44',
            'lr41',
            'ag13',
            'ag3',
            'button battery',
            'button cell',
            'coin battery',
            'coin cell',
          ],
          also: ['cover', 'door', 'compartment', 'loose', 'tape', 'taped'],
        },
      },
      {
        outcome: 'note',
        text: "Button and coin batteries burn through a child's throat within hours: check the battery cover is screwed shut.",
        when: {
          any: [
            'cr2032',
            'cr2025',
            'cr2016',
            'cr1220',
            'lr44',
            'lr41',
            'ag13',
            'ag3',
            'button battery',
            'button cell',
            'coin battery',
            'coin cell',
          ],
        },
      },
      {
        outcome: 'note',
        text: 'Light-up and musical toys often hold button or coin batteries: check the battery cover is screwed shut.',
        when: {
          any: [
            'light up',
            'lights up',
            'musical',
            'sing',
            'singing',
            'talking',
            'flashing',
            'battery operated',
            'electronic',
          ],
          age: { line: UNDER_3, is: ['under', 'straddles'] },
        },
      },
    ],
  },
  {
    id: 'R17',
    title: 'Lead in older items',
    source:
      'http://cpsc.gov/Business--Manufacturing/Business-Education/Lead/FAQs-Total-Lead-Content-in-Childrens-Products/',
    when: { notTypes: ['book'] },
    branches: [
      {
        outcome: 'flag',
        text: "Children's products made before 14 August 2011 may hold more lead than is now allowed, most often in paint and metal. A moderator checks.",
        when: {
          any: ['vintage', 'antique', '1950s', '1960s', '1970s', '1980s', '1990s', 'heirloom'],
          also: [
            'painted',
            'paint',
            'metal',
            'die cast',
            'diecast',
            'tin',
            'enamel',
            'lead',
            'brass',
            'pewter',
            'cast iron',
          ],
        },
      },
      {
        outcome: 'flag',
        text: "Children's products made before 14 August 2011 may hold more lead than is now allowed, most often in paint and metal. A moderator checks.",
        when: {
          made: { before: CUTOFFS.lead, is: ['before'] },
          any: [
            'painted',
            'paint',
            'metal',
            'die cast',
            'diecast',
            'tin',
            'enamel',
            'brass',
            'pewter',
            'cast iron',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'Unbranded metal jewelry for children may contain lead or cadmium. A moderator checks.',
        when: {
          any: [
            'necklace',
            'bracelet',
            'earring',
            'jewelry',
            'jewellery',
            'charm bracelet',
            'pendant',
            'anklet',
          ],
          also: ['metal', 'silver tone', 'gold tone', 'alloy', 'charm', 'plated'],
          unbranded: true,
        },
      },
    ],
  },
  {
    id: 'R18',
    title: 'Car seats',
    source: 'http://www.nhtsa.gov/people/injury/childps/ChildRestraints/ReUse/index.htm',
    when: { types: ['car seat'] },
    branches: [
      {
        outcome: 'note',
        text: 'Before using a second-hand car seat, check its expiry date and labels, and register it with the maker for recall notices.',
        alsoNext: true,
        when: {},
      },
      {
        outcome: 'block',
        text: 'A car seat that has been in a crash must be replaced (NHTSA); it may not be resold.',
        when: { any: CRASH },
      },
      {
        outcome: 'block',
        text: 'This car seat has expired: makers date seats to about 6 to 10 years from manufacture.',
        when: { any: ['expired', 'past expiry', 'past expiration', 'out of date'] },
      },
      {
        outcome: 'block',
        text: 'This car seat has expired: makers date seats to about 6 to 10 years from manufacture.',
        when: { expired: true },
      },
      {
        outcome: 'block',
        text: "Made more than 10 years ago: this car seat is past any maker's expiry date.",
        when: { yearsOld: { min: 11 } },
      },
      {
        outcome: 'block',
        text: 'A cracked or broken car seat cannot protect a child; it may not be resold.',
        when: {
          any: ['cracked', 'crack', 'broken', 'missing strap', 'missing buckle', 'missing parts', 'frayed'],
        },
      },
      {
        outcome: 'flag',
        text: 'Made 6 to 10 years ago: many car seats expire at 6 years. A moderator checks the expiry date on its label.',
        when: { yearsOld: { min: 6, max: 10 } },
      },
      {
        outcome: 'flag',
        text: 'A car seat without its labels cannot be checked for its date or recalls. A moderator checks.',
        when: {
          any: [
            'label missing',
            'missing label',
            'no label',
            'labels missing',
            'label removed',
            'sticker missing',
            'no sticker',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'A car seat whose history is unknown may have been in a crash. A moderator checks.',
        when: {
          any: [
            'unknown history',
            'history unknown',
            'dont know history',
            'not sure if',
            'unsure',
            'unknown',
          ],
        },
      },
      {
        outcome: 'flag',
        text: `Car seats expire about 6 to 10 years after they are made. ${UNDATED_ASK}`,
        when: { undated: true },
      },
      {
        outcome: 'flag',
        text: 'A car seat in fair condition: a moderator checks the photos for wear and damage.',
        when: { conditions: ['fair', 'as is', 'poor'] },
      },
    ],
  },
  {
    id: 'R19',
    title: 'Bike helmets',
    source: null,
    when: { types: ['helmet'] },
    branches: [
      {
        outcome: 'block',
        text: 'A helmet that has taken a crash or a fall may be damaged where it cannot be seen: it must be destroyed and replaced, not resold.',
        when: {
          any: [
            'crash',
            'crashed',
            'a fall',
            'fell',
            'impact',
            'dropped',
            'crack',
            'cracked',
            'accident',
            'dent',
            'dented',
          ],
        },
      },
      {
        outcome: 'note',
        text: 'Replace a helmet after any crash, and check it carries the CPSC certification sticker inside.',
        when: {},
      },
    ],
  },
  {
    id: 'R20',
    title: 'Breast pumps',
    source: null,
    when: { types: ['breast pump'], none: ['sealed', 'unopened', 'new in box', 'never opened', 'brand new'] },
    branches: [
      {
        outcome: 'flag',
        text: 'The FDA says a used single-user breast pump can carry infectious particles. A moderator checks it is a multi-user pump.',
        alsoNext: true,
        when: {
          conditions: ['like new', 'good', 'fair', 'as is', 'poor'],
          none: ['multi user', 'multiple user', 'hospital grade'],
        },
      },
      {
        outcome: 'flag',
        text: 'The FDA says a used single-user breast pump can carry infectious particles. A moderator checks it is a multi-user pump.',
        alsoNext: true,
        when: {
          any: ['used', 'tubing', 'flange'],
          none: ['multi user', 'multiple user', 'hospital grade', 'new tubing', 'new flange'],
        },
      },
      {
        outcome: 'note',
        text: 'A used breast pump needs new tubing, flanges and valves of your own, and only multi-user pumps may be shared.',
        when: { conditions: ['like new', 'good', 'fair', 'as is', 'poor'] },
      },
      {
        outcome: 'note',
        text: 'A used breast pump needs new tubing, flanges and valves of your own, and only multi-user pumps may be shared.',
        when: { any: ['used', 'tubing', 'flange'] },
      },
    ],
  },
  {
    id: 'R21',
    title: 'Crib and play-yard mattresses',
    source: null,
    branches: [
      {
        outcome: 'flag',
        text: 'Extra padding, toppers or custom mattresses in a crib or play yard are a suffocation risk; use only a firm, fitted mattress. A moderator checks.',
        when: {
          any: [
            'topper',
            'pillow top',
            'extra padding',
            'extra thick',
            'thick pad',
            'extra cushioning',
            'extra soft',
            'memory foam',
            'custom size',
            'custom made',
            'homemade mattress',
            'foam pad',
          ],
          also: SLEEP_PLACES,
        },
      },
      {
        outcome: 'note',
        text: 'Use only the mattress made for the crib or play yard, with no gaps at the sides, and only a fitted sheet on it.',
        when: { any: ['mattress'], also: SLEEP_PLACES },
      },
    ],
  },
  {
    id: 'R22',
    title: 'Dressers and bunk beds',
    source: null,
    branches: [
      {
        outcome: 'flag',
        text: 'A bunk bed with a missing guardrail is a fall and entrapment hazard. A moderator checks.',
        alsoNext: true,
        when: {
          types: ['bunk bed'],
          any: [
            'guardrail missing',
            'missing guardrail',
            'no guardrail',
            'rail missing',
            'missing rail',
            'guard rail missing',
            'missing guard rail',
            'no guard rail',
          ],
        },
      },
      {
        outcome: 'flag',
        text: 'Bunk beds made before 19 June 2000 may not meet the US guardrail and entrapment rules. A moderator checks the date on its label.',
        alsoNext: true,
        when: { types: ['bunk bed'], made: { before: CUTOFFS.bunkBed, is: ['before', 'ambiguous'] } },
      },
      {
        outcome: 'note',
        text: 'No child under 6 on the top bunk, and guardrails on both sides of it.',
        when: { types: ['bunk bed'] },
      },
      {
        outcome: 'note',
        text: 'Dressers tip over onto children: anchor it to the wall.',
        when: { types: ['dresser'] },
      },
    ],
  },
  {
    id: 'R23',
    title: 'Car-seat type and age',
    source: null,
    when: { types: ['car seat'] },
    branches: [
      {
        outcome: 'flag',
        text: 'A booster is for a child who has outgrown a harnessed seat, never for a baby or toddler. List it for 4+ years.',
        suggestAge: '4+ years',
        when: { any: ['booster'], age: { line: UNDER_3, is: ['under'] } },
      },
      {
        outcome: 'flag',
        text: 'An infant car seat is for babies, rear-facing. List it for 0-12 months.',
        suggestAge: '0-12 months',
        when: {
          any: ['infant car seat', 'infant carrier car seat', 'rear facing infant'],
          age: { line: 48, is: ['over'] },
        },
      },
    ],
  },
  {
    id: 'R24',
    title: 'Product-type age limits',
    source: null,
    branches: [
      {
        outcome: 'flag',
        text: 'Bassinets and other infant sleep products are for babies up to about 5 months. List it for 0-6 months.',
        suggestAge: '0-6 months',
        when: { types: ['bassinet'], age: { line: 6, is: ['over'] } },
      },
      {
        outcome: 'flag',
        text: 'Baby walkers are for babies who cannot yet walk. List it for 6-12 months.',
        suggestAge: '6-12 months',
        when: { types: ['walker'], age: { line: 24, is: ['over'] } },
      },
    ],
  },
  {
    id: 'R25',
    title: 'Canada',
    source: null,
    branches: [
      {
        outcome: 'block',
        text: 'Baby walkers are banned in Canada, resale included.',
        when: { regions: ['CA'], types: ['walker'] },
      },
      {
        outcome: 'block',
        text: 'Cribs made before September 1986 may not be sold in Canada.',
        when: { regions: ['CA'], types: ['crib'], made: { before: CUTOFFS.canadaCrib, is: ['before'] } },
      },
      {
        outcome: 'block',
        text: 'Car seats made before January 2012 may not be sold or used in Canada.',
        when: {
          regions: ['CA'],
          types: ['car seat'],
          made: { before: CUTOFFS.canadaCarSeat, is: ['before'] },
        },
      },
      {
        outcome: 'block',
        text: 'Self-feeding devices, bottle props and yo-yo balls are banned in Canada.',
        when: {
          regions: ['CA'],
          any: [
            'bottle prop',
            'bottle holder pillow',
            'self feeding bottle',
            'hands free bottle',
            'yo yo ball',
            'yoyo ball',
          ],
        },
      },
    ],
  },
];
