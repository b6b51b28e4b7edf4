// Reading the CPSC Recalls JSON as published (api/recalls/feed.ts): lenient about missing and empty
// fields, strict about records that cannot be used, and which recalls are of children's products.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../../api/env.ts';
import { changedSince, refreshBackoffMs, sourceName } from '../../api/lib/recall-refresh.ts';
import { isForChildren, parseRecallFeed, RecallFeedError } from '../../api/recalls/feed.ts';

const refusal = (feed: unknown): string => {
  try {
    parseRecallFeed(feed);
  } catch (error) {
    expect(error).toBeInstanceOf(RecallFeedError);
    return (error as Error).message;
  }
  throw new Error('The feed was not refused.');
};

const product = (name: string, type: string | null = null) => ({
  name,
  description: null,
  model: null,
  type,
  categoryId: null,
  units: null,
});

describe('the recall feed', () => {
  it('reads a record with only an id and a title: lists empty, text null', () => {
    const [recall] = parseRecallFeed([{ RecallID: 12, Title: 'Acme Recalls Kettles' }]);
    expect(recall).toEqual({
      recallId: 12,
      recallNumber: null,
      recallDate: null,
      lastPublishDate: null,
      title: 'Acme Recalls Kettles',
      description: null,
      url: null,
      consumerContact: null,
      lists: {
        products: [],
        manufacturers: [],
        retailers: [],
        importers: [],
        distributors: [],
        hazards: [],
        remedies: [],
        remedyOptions: [],
        images: [],
        upcs: [],
        injuries: [],
        countries: [],
      },
      forChildren: false,
    });
  });

  it('treats null lists, null entries, empty text and entries without a name as missing', () => {
    const [recall] = parseRecallFeed(
      JSON.stringify([
        {
          RecallID: 13,
          RecallNumber: 26013,
          RecallDate: '2026-03-04T00:00:00',
          LastPublishDate: '2026-03-05T10:11:12',
          Title: 'Acme Recalls Cribs',
          Description: '',
          URL: '   ',
          Products: [
            null,
            { Name: '', Model: '' },
            { Name: 'Acme Crib', Model: 'C-1', NumberOfUnits: 'About 500', CategoryID: 7 },
          ],
          Manufacturers: null,
          Retailers: [{ Name: 'Shop', CompanyID: 44 }, { Name: '' }],
          Hazards: [],
          Remedies: [{ Name: 'Refund' }],
          RemedyOptions: [{ Option: 'Refund' }, { Option: null }],
          Images: [{ URL: 'https://www.cpsc.gov/x.jpg' }],
          ProductUPCs: [{ UPC: 123456789012 }],
          Injuries: null,
          ManufacturerCountries: [{ Country: 'China' }],
          SomethingNew: { ignored: true },
        },
      ]),
    );
    expect(recall).toMatchObject({
      recallNumber: '26013',
      recallDate: '2026-03-04',
      lastPublishDate: '2026-03-05T10:11:12',
      description: null,
      url: null,
      forChildren: true,
      lists: {
        products: [
          {
            name: 'Acme Crib',
            description: null,
            model: 'C-1',
            type: null,
            categoryId: '7',
            units: 'About 500',
          },
        ],
        manufacturers: [],
        retailers: [{ name: 'Shop', companyId: '44' }],
        remedies: ['Refund'],
        remedyOptions: ['Refund'],
        images: ['https://www.cpsc.gov/x.jpg'],
        upcs: ['123456789012'],
        injuries: [],
        countries: ['China'],
      },
    });
  });

  it('keeps odd Unicode exactly', () => {
    const title = 'Bébé Crèche 🍼 Recalls Cribs — מיטת תינוק \u200f(סדרה א) 𝒞';
    const [recall] = parseRecallFeed([
      { RecallID: 14, Title: title, Manufacturers: [{ Name: '  Ünïcødé  Co. ' }] },
    ]);
    expect(recall!.title).toBe(title);
    expect(recall!.lists.manufacturers[0]!.name).toBe('  Ünïcødé  Co. ');
  });

  it('keeps the later record when a RecallID appears twice', () => {
    const recalls = parseRecallFeed([
      { RecallID: 1, Title: 'First' },
      { RecallID: 2, Title: 'Other' },
      { RecallID: 1, Title: 'First, corrected' },
    ]);
    expect(recalls.map((r) => [r.recallId, r.title])).toEqual([
      [2, 'Other'],
      [1, 'First, corrected'],
    ]);
  });

  it('refuses a feed that is not JSON or not a list', () => {
    expect(refusal('[{"RecallID": 1,')).toMatch(/^The recall feed was refused: it is not JSON/);
    expect(refusal('{"RecallID": 1}')).toBe(
      'The recall feed was refused: it must be a list of records, not an object.',
    );
    expect(refusal(null)).toBe('The recall feed was refused: it must be a list of records, not null.');
  });

  it('reads a feed given as bytes (as files and addresses are) exactly as the same text', () => {
    const tricky = [
      {
        RecallID: 1,
        Title: 'Brackets ] } [ { and commas, in text',
        Description: 'A "quoted" \\ back\\slash\n',
      },
      { RecallID: 2, Title: 'Nested', Products: [{ Name: 'Crib, [model] {A}', Model: '\\"' }], Hazards: [] },
      { RecallID: 3, Title: 'Bébé 🍼 מיטה', Remedies: [{ Name: 'Refund' }] },
    ];
    const text = JSON.stringify(tricky, null, 2);
    const expected = parseRecallFeed(text);
    expect(expected.map((r) => r.title)).toEqual(tricky.map((r) => r.Title));
    expect(parseRecallFeed(Buffer.from(text))).toEqual(expected);
    expect(parseRecallFeed(Buffer.from(`\ufeff \n${text}\n `))).toEqual(expected);
    expect(parseRecallFeed(Buffer.from(JSON.stringify(tricky)))).toEqual(expected);
    expect(parseRecallFeed(Buffer.from('[]'))).toEqual([]);
    expect(parseRecallFeed(Buffer.from(' [ ] '))).toEqual([]);
    expect(
      refusal(Buffer.from(JSON.stringify([...tricky, { RecallID: 9, Title: 'T', RecallDate: 'soon' }]))),
    ).toBe('The recall feed was refused: Record 4 (RecallID 9): RecallDate "soon" is not a date.');
  });

  it('refuses bytes that are not a JSON list as JSON.parse would', () => {
    for (const text of [
      '[{"RecallID": 1, "Title": "x"},]',
      '[{"RecallID": 1',
      '[1 2]',
      '[,1]',
      '[1] x',
      'nope',
      '',
    ]) {
      let expected = '';
      try {
        JSON.parse(text);
      } catch (error) {
        expected = `The recall feed was refused: it is not JSON (${(error as Error).message}).`;
      }
      expect(refusal(Buffer.from(text)), text).toBe(expected);
    }
    expect(refusal(Buffer.from('{"RecallID": 1}'))).toBe(
      'The recall feed was refused: it must be a list of records, not an object.',
    );
    expect(refusal(Buffer.from('"["'))).toBe(
      'The recall feed was refused: it must be a list of records, not text.',
    );
  });

  it('names each unusable record by its position and RecallID, and says what is wrong', () => {
    const ok = { RecallID: 1, Title: 'Fine' };
    const cases: [unknown, string][] = [
      [
        { RecallID: 9102, Title: 'T', RecallDate: 'yesterday' },
        'Record 2 (RecallID 9102): RecallDate "yesterday" is not a date.',
      ],
      [
        { RecallID: 9103, Title: 'T', RecallDate: '2026-02-30' },
        'Record 2 (RecallID 9103): RecallDate "2026-02-30" is not a date.',
      ],
      [
        { RecallID: 9104, Title: 'T', LastPublishDate: '13/01/2026' },
        'Record 2 (RecallID 9104): LastPublishDate "13/01/2026" is not a date.',
      ],
      [{ Title: 'T' }, 'Record 2: RecallID is missing.'],
      [{ RecallID: '7', Title: 'T' }, 'Record 2: RecallID "7" is not a positive whole number.'],
      [{ RecallID: -3, Title: 'T' }, 'Record 2: RecallID -3 is not a positive whole number.'],
      [{ RecallID: 1.5, Title: 'T' }, 'Record 2: RecallID 1.5 is not a positive whole number.'],
      [{ RecallID: 9105 }, 'Record 2 (RecallID 9105): Title is missing.'],
      [{ RecallID: 9106, Title: '  ' }, 'Record 2 (RecallID 9106): Title is missing.'],
      [
        { RecallID: 9107, Title: 'T', Hazards: 'Fire' },
        'Record 2 (RecallID 9107): Hazards must be a list, not text.',
      ],
      [
        { RecallID: 9108, Title: 'T', Products: [{ Name: 5 }] },
        'Record 2 (RecallID 9108): Products.0.Name must be text, not a number.',
      ],
      [
        { RecallID: 9109, Title: 'T', Products: ['Crib'] },
        'Record 2 (RecallID 9109): Products.0 must be an object, not text.',
      ],
      [{ RecallID: 9110, Title: ['T'] }, 'Record 2 (RecallID 9110): Title must be text, not a list.'],
      ['Crib', 'Record 2: must be an object, not text.'],
      [
        { RecallID: 9111, Title: 'Crib\u0000' },
        'Record 2 (RecallID 9111): Title contains text that cannot be stored (a NUL or an unpaired surrogate).',
      ],
      [
        { RecallID: 9112, Title: 'T', Manufacturers: [{ Name: 'A\ud800B' }] },
        'Record 2 (RecallID 9112): Manufacturers.0.Name contains text that cannot be stored (a NUL or an unpaired surrogate).',
      ],
    ];
    for (const [bad, message] of cases) {
      expect(refusal([ok, bad, ok])).toBe(`The recall feed was refused: ${message}`);
    }
  });

  it('lists every unusable record, the first five in full', () => {
    const feed = Array.from({ length: 8 }, (_, i) => ({ RecallID: i + 1 }));
    const message = refusal(feed);
    expect(message).toContain('Record 1 (RecallID 1): Title is missing.\nRecord 2 (RecallID 2)');
    expect(message).toContain('Record 5 (RecallID 5)');
    expect(message).not.toContain('Record 6');
    expect(message).toMatch(/… and 3 more\.$/);
  });
});

describe("children's products", () => {
  it('are found by the product part of the title or by the products', () => {
    expect(isForChildren('Acme Recalls Convertible Car Seats Due to Fall Hazard', [])).toBe(true);
    expect(isForChildren('Acme Recalls Gadgets', [product('Gadget', 'Toys')])).toBe(true);
    expect(isForChildren('Acme Recalls Gadgets', [product("Kids' Gadget")])).toBe(true);
    expect(isForChildren('Acme Recalls Play Yards', [])).toBe(true);
    expect(isForChildren('Acme Recalls Infant Sleepers', [])).toBe(true);
  });

  it('are not recalls that only name children as those at risk, or words that merely look alike', () => {
    expect(
      isForChildren('Oakline Recalls Dressers Due to Tip-Over Hazard; Risk of Death to Children', [
        product('Six-Drawer Dresser', 'Dressers'),
      ]),
    ).toBe(false);
    expect(
      isForChildren('Acme Recalls Pain Relievers Due to Failure to Meet Child-Resistant Packaging', []),
    ).toBe(false);
    expect(isForChildren('Acme Recalls Sleeper Sofas', [])).toBe(false);
    expect(isForChildren('Toyota-branded Floor Mats Recalled', [product('Floor Mat')])).toBe(false);
    expect(isForChildren('Acme Recalls Kidney-Shaped Pools', [])).toBe(false);
  });

  it('in the sample feed: its fictional cribs, car seats and toys, not its heater or dresser', () => {
    const feed = fs.readFileSync(path.resolve(import.meta.dirname, '../../content/recalls.json'), 'utf8');
    const recalls = parseRecallFeed(feed);
    expect(recalls.length).toBeGreaterThanOrEqual(8);
    expect(
      recalls.every((r) => r.title.endsWith('(sample)') && r.url === 'https://www.cpsc.gov/Recalls'),
    ).toBe(true);
    expect(recalls.filter((r) => !r.forChildren).map((r) => r.lists.products[0]!.type)).toEqual([
      'Heaters',
      'Dressers',
    ]);
  });
});

describe('the refresh source', () => {
  it('RECALLS_URL is optional and must be an http(s) URL', () => {
    expect(parseEnv({}).RECALLS_URL).toBeUndefined();
    expect(parseEnv({ RECALLS_URL: '' }).RECALLS_URL).toBeUndefined();
    const url = 'https://www.saferproducts.gov/RestWebServices/Recall?format=json';
    expect(parseEnv({ RECALLS_URL: url }).RECALLS_URL).toBe(url);
    expect(() => parseEnv({ RECALLS_URL: 'ftp://example.org/recalls.json' })).toThrow(
      /RECALLS_URL: must start with http:\/\/ or https:\/\//,
    );
    expect(() => parseEnv({ RECALLS_URL: 'recalls.json' })).toThrow(EnvError);
  });

  it('asks only for what changed since the last import, and never shows credentials', () => {
    const url = 'https://user:secret@recalls.example/Recall?format=json';
    expect(changedSince(url, null)).toBe(url);
    expect(changedSince(url, '2026-11-20T03:04:05.000Z')).toBe(
      'https://user:secret@recalls.example/Recall?format=json&LastPublishDateStart=2026-11-20',
    );
    expect(sourceName(url)).toBe('https://recalls.example/Recall?format=json');
  });

  it('waits longer after each failed try, at most six hours', () => {
    expect([1, 2, 3, 4].map(refreshBackoffMs)).toEqual([5, 10, 20, 40].map((m) => m * 60_000));
    expect(refreshBackoffMs(20)).toBe(6 * 60 * 60_000);
  });
});
