// npm run bench:recalls [-- <records>] — a generated feed in the CPSC Recalls JSON format (10,000
// records, about 27 MB, like the real one) imported into a fresh SQLite database the way
// npm run recalls:import does it: the wall time, records/s and peak memory of the importing process.
// Targets (issue #24): under 30 s and under 500 MB.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../api/db/database.ts';
import { migrateToLatest } from '../../api/db/migrate.ts';
import type { RecallImportResult } from '../../api/db/queries/recall-imports.ts';
import { importRecallSource } from '../../api/lib/recall-refresh.ts';
import { tempDir } from '../lib/temp.ts';
import { machine, mib, SQLITE_ONLY } from './lib.ts';

const TARGET_MS = 30_000;
const TARGET_BYTES = 500 * 2 ** 20;

interface Measured {
  label: string;
  ms: number;
  maxRssBytes: number;
  result: RecallImportResult;
}

// ---- The importing child: prepares the database as the CLI does, then imports the feed twice ----

if (process.argv[2] === '--child') {
  const [label, file, dbFile] = [process.argv[3]!, process.argv[4]!, process.argv[5]!];
  // As the command line opens it: migrated (here already seeded with content/'s items).
  const db = openDatabase(dbFile);
  await migrateToLatest(db);
  const started = performance.now();
  const { result } = await importRecallSource(db, file, new Date());
  const ms = performance.now() - started;
  // maxRSS (kilobytes) is the process's peak so far: start-up, opening the database and the import.
  const measured: Measured = { label, ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, result };
  await db.destroy();
  process.stdout.write(JSON.stringify(measured));
  process.exit(0);
}

// ---- The generator: varied, realistic records from a seeded random source ----

let seed = 24;
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
  'Dorel Juvenile',
  'Baby Trend',
  'Munchkin',
  'Skip Hop',
  'Boppy',
  'Nuna',
  'UPPAbaby',
  'Britax',
  'Hasbro',
  'Mattel',
  'Melissa & Doug',
  'LEGO',
  'VTech',
  'Little Tikes',
  'Step2',
  'IKEA',
  'Ashley Furniture',
  'Whirlpool',
  'GE Appliances',
  'Black+Decker',
  'Hamilton Beach',
  'Cuisinart',
  'Conair',
  'Trek Bicycle',
  'Specialized',
  'Polaris',
  'Honda',
  'Coleman',
  'Igloo',
  'Peloton',
  'NordicTrack',
  'Dyson',
  'Samsung',
  'Anker',
  'Belkin',
  'Target',
  'Walmart',
  'Amazon Basics',
  'Crate & Barrel',
  'Pottery Barn Kids',
  'Wayfair',
  'Costco',
  'Kohl’s',
  'Société Générale du Jouet',
  'Øresund Design',
  'Nürnberger Spielwaren',
  'Ziyang Toys Co.',
  'Shenzhen Bright Electronics',
  'Ningbo Homeware',
  'Café Bébé',
];
const SUFFIXES = ['Inc.', 'LLC', 'Co.', 'Corp.', 'Ltd.', 'Company', 'USA Inc.', 'International LLC', ''];
const PRODUCTS: [string, string, boolean][] = [
  ['Convertible Car Seat', 'Car Seats', true],
  ['Infant Car Seat', 'Car Seats', true],
  ['Booster Seat', 'Car Seats', true],
  ['Full-Size Crib', 'Cribs', true],
  ['Bassinet', 'Bassinets', true],
  ['Portable Play Yard', 'Play Yards', true],
  ['Jogging Stroller', 'Strollers', true],
  ['Travel System Stroller', 'Strollers', true],
  ['High Chair', 'High Chairs', true],
  ['Baby Bouncer', 'Bouncers', true],
  ['Infant Swing', 'Swings', true],
  ['Baby Walker', 'Walkers', true],
  ['Inclined Sleeper', 'Infant Sleep Products', true],
  ['Teething Toy', 'Teethers', true],
  ['Pacifier Clip', 'Pacifiers', true],
  ['Plush Toy', 'Toys', true],
  ['Building Set', 'Toys', true],
  ['Ride-On Toy', 'Toys', true],
  ["Children's Hooded Sweatshirt", 'Clothing', true],
  ['Youth ATV', 'All-Terrain Vehicles', true],
  ['Six-Drawer Dresser', 'Dressers', false],
  ['Chest of Drawers', 'Dressers', false],
  ['Space Heater', 'Heaters', false],
  ['Pressure Cooker', 'Kitchen', false],
  ['Electric Kettle', 'Kitchen', false],
  ['Power Bank', 'Batteries', false],
  ['Hoverboard', 'Scooters', false],
  ['Mountain Bicycle', 'Bicycles', false],
  ['Treadmill', 'Exercise Equipment', false],
  ['Dehumidifier', 'Appliances', false],
  ['Window Blind', 'Window Coverings', false],
  ['Gas Grill', 'Outdoor', false],
  ['Hair Dryer', 'Personal Care', false],
  ['Laundry Detergent Pods', 'Household Chemicals', false],
  ['Candle Set', 'Home Decor', false],
];
const HAZARDS = [
  [
    'The product can tip over if it is not anchored to the wall, posing serious tip-over and entrapment hazards that can result in death or injuries to children.',
    '8',
  ],
  ['The harness buckle can release unexpectedly, posing a fall and injury hazard.', '12'],
  ['Small parts can detach, posing a choking hazard to young children.', '3'],
  ['The battery can overheat and ignite, posing fire and burn hazards.', '5'],
  ['Infants can roll onto their stomach or side while unrestrained, posing a suffocation hazard.', '21'],
  ['The frame can break, posing a fall hazard.', '7'],
  [
    'The packaging is not child resistant as required by the Poison Prevention Packaging Act, posing a risk of poisoning if the contents are swallowed by young children.',
    '30',
  ],
  ['The lid can open while the contents are under pressure, posing a burn hazard.', '5'],
  ['Children can become strangled in the cord loops.', '14'],
];
const REMEDIES = ['Refund', 'Replace', 'Repair', 'New Instructions', 'Label'];
const COUNTRIES = [
  'China',
  'Vietnam',
  'Mexico',
  'United States',
  'Taiwan',
  'Indonesia',
  'India',
  'Germany',
  'Türkiye',
];
const RETAILERS = [
  'Walmart',
  'Target',
  'Amazon.com',
  'buybuy BABY',
  'Kohl’s',
  'Home Depot',
  'Lowe’s',
  'Costco',
  'Wayfair',
];
const SENTENCES = [
  'This recall involves the products listed below, sold in several colors and fabric patterns.',
  'The model number and date of manufacture are printed on a label on the underside of the base.',
  'Only units manufactured between January 2019 and March 2023 are included in this recall.',
  'The brand name is printed on the front of the product and on the packaging.',
  'Consumers should immediately stop using the recalled products and contact the firm for a free remedy.',
  'The firm is contacting all known purchasers directly.',
  'Recalled units were sold in stores nationwide and online from 2021 through 2024.',
  'Consumers can also find the model number in the owner’s manual and on the original carton.',
];
const paragraph = (count: number) => Array.from({ length: count }, () => pick(SENTENCES)).join(' ');
const day = (start: number, spanDays: number) =>
  new Date(start + int(0, spanDays) * 86_400_000).toISOString().slice(0, 19);

function generateRecord(index: number): unknown {
  const brand = pick(BRANDS);
  const company = `${brand} ${pick(SUFFIXES)}`.trim();
  const productCount = random() < 0.7 ? 1 : int(2, 6);
  const [productName, productType] = pick(PRODUCTS);
  const recallDate = day(Date.UTC(2005, 0, 1), 7_600);
  const hazard = pick(HAZARDS);
  const sparse = random() < 0.1;
  return {
    RecallID: 1_000 + index,
    RecallNumber: String(int(10_000, 26_999)),
    RecallDate: recallDate,
    Description: paragraph(int(3, 8)),
    URL: `https://www.cpsc.gov/Recalls/${recallDate.slice(0, 4)}/${brand.replace(/\W+/g, '-')}-Recalls-${index}`,
    Title: `${brand} Recalls ${productName}s Due to ${hazard[0]!.split(',')[0]!.replace(/^The |\.$/g, '')}`,
    ConsumerContact: `${brand} toll-free at 800-${int(200, 999)}-${int(1000, 9999)} from 8 a.m. to 5 p.m. ET Monday through Friday, or online at www.${brand.toLowerCase().replace(/\W+/g, '')}.com and click on "Recall" for more information.`,
    LastPublishDate: day(Date.parse(recallDate), 400),
    Products: Array.from({ length: productCount }, (_, n) => ({
      Name: `${brand} ${productName}${n > 0 ? ` ${pick(['Deluxe', 'Plus', 'Lite', 'Pro', 'Mini'])}` : ''}`,
      Description: paragraph(int(1, 3)),
      Model: sparse
        ? ''
        : `${brand.slice(0, 2).toUpperCase()}-${int(100, 9999)}${pick(['', 'A', 'B', '-X'])}`,
      Type: productType,
      CategoryID: String(int(1, 300)),
      NumberOfUnits: `About ${int(1, 900).toLocaleString('en-US')},${String(int(0, 999)).padStart(3, '0')}`,
    })),
    Inconjunctions: random() < 0.2 ? [{ URL: 'https://www.canada.ca/en/health-canada.html' }] : [],
    Images: Array.from({ length: int(0, 6) }, (_, n) => ({
      URL: `https://www.cpsc.gov/s3fs-public/${brand.replace(/\W+/g, '')}-${index}-${n}.jpg`,
      Caption: `${productName}, view ${n + 1}`,
    })),
    Injuries: sparse ? null : [{ Name: random() < 0.5 ? 'None reported' : paragraph(1) }],
    Manufacturers: [{ Name: company, CompanyID: String(int(1, 90_000)) }],
    Retailers: Array.from({ length: int(0, 4) }, () => ({
      Name: `${pick(RETAILERS)} stores nationwide and online`,
      CompanyID: String(int(1, 90_000)),
    })),
    Importers:
      random() < 0.3 ? [{ Name: `${pick(BRANDS)} Imports LLC`, CompanyID: String(int(1, 90_000)) }] : [],
    Distributors: random() < 0.2 ? [{ Name: `${pick(BRANDS)} Distribution`, CompanyID: '' }] : [],
    ManufacturerCountries: [{ Country: pick(COUNTRIES) }],
    ProductUPCs: Array.from({ length: int(0, 12) }, () => ({
      UPC: String(int(100_000, 999_999)) + String(int(100_000, 999_999)),
    })),
    Hazards: [{ Name: hazard[0], HazardTypeID: hazard[1] }],
    Remedies: [{ Name: `${pick(REMEDIES)}. ${paragraph(int(1, 3))}` }],
    RemedyOptions: [{ Option: pick(REMEDIES) }],
  };
}

// ---- The bench ----

const count = Number(process.argv[2] ?? 10_000);
console.log(`bench:recalls on ${machine()}, ${new Date().toISOString()}`);
const dir = tempDir('nestling-bench-recalls-');
const feedFile = path.join(dir, 'recalls.json');
fs.writeFileSync(feedFile, JSON.stringify(Array.from({ length: count }, (_, i) => generateRecord(i))));
console.log(
  `Generated ${count.toLocaleString('en-US')} records: ${mib(fs.statSync(feedFile).size)} of JSON.`,
);

// Each import in a process of its own, as the command line runs it, so its peak memory is the
// import's and not the generator's (or the first import's).
const dbFile = path.join(dir, 'bench.db');
// The catalogue's items, so every import re-checks them as it would on a real site. Loaded here
// only: the importing child loads what the command line loads, not the Markdown renderer.
const { prepareDatabase } = await import('../../api/db/prepare.ts');
await (await prepareDatabase(dbFile, 'content', { sampleRecalls: false })).db.destroy();
const measure = (label: string) =>
  new Promise<Measured>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, '--child', label, feedFile, dbFile],
      {
        env: { ...process.env, ...SQLITE_ONLY },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(text) as Measured)
        : reject(new Error(`The import exited with ${code}.`)),
    );
  });
const measured = [
  await measure('first import (all new)'),
  await measure('the same feed again (all unchanged)'),
];
const rows = measured.map((m) => ({
  run: m.label,
  's (wall)': (m.ms / 1000).toFixed(1),
  'records/s': Math.round(m.result.records / (m.ms / 1000)).toLocaleString('en-US'),
  'peak memory': mib(m.maxRssBytes),
  added: m.result.added,
  unchanged: m.result.unchanged,
  "children's": m.result.children,
  met: m.ms < TARGET_MS && m.maxRssBytes < TARGET_BYTES ? 'yes' : 'NO',
}));
console.table(rows);
console.log('Targets: under 30 s and under 500 MiB of peak memory.');
fs.rmSync(dir, { recursive: true, force: true });
