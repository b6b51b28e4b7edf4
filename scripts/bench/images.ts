// npm run bench:images [-- <runs>] — an upload of a 4,000 × 3,000 camera JPEG (photo-like pixels:
// gradients, texture and noise; EXIF with a GPS position), made in memory and processed the way
// POST /api/studio/images processes it: decoded, turned upright, stripped of all metadata and
// encoded in every width as AVIF and WebP (api/lib/images.ts). Prints each run's time, the median
// and the slowest, the variants' sizes and the process's peak memory. Target (issue #23): under 2 s.
import os from 'node:os';
import sharp from 'sharp';
import { processImage, type ProcessedImage } from '../../api/lib/images.ts';
import { machine, mib } from './lib.ts';

const TARGET_MS = 2_000;
const WIDTH = 4_000;
const HEIGHT = 3_000;
const runs = Number(process.argv[2] ?? 7);
if (!Number.isInteger(runs) || runs < 1) throw new Error('runs: a whole number of at least 1');

/** Pixels like a photo's, so the encoders work as hard as on one (a flat image is far quicker). */
function photoPixels(width: number, height: number): Buffer {
  const pixels = new Uint8ClampedArray(width * height * 3);
  let state = 1;
  const noise = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5) * 24;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const texture = 20 * Math.sin(x / 7 + 3 * Math.sin(y / 13)) * Math.cos(y / 11);
      pixels[i] = (x / width) * 200 + 30 * Math.sin(y / 50) + texture + noise();
      pixels[i + 1] = (y / height) * 180 + 30 * Math.cos(x / 70) + texture + noise();
      pixels[i + 2] = 128 + 60 * Math.sin((x + y) / 200) - texture + noise();
    }
  }
  return Buffer.from(pixels.buffer);
}

const jpeg = await sharp(photoPixels(WIDTH, HEIGHT), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
  .jpeg({ quality: 90 })
  .withExif({
    IFD0: { Make: 'PhoneCo', Model: 'Phone 12' },
    IFD3: {
      GPSLatitudeRef: 'N',
      GPSLatitude: '51/1 30/1 2649/100',
      GPSLongitudeRef: 'W',
      GPSLongitude: '0/1 7/1 3969/100',
    },
  })
  .toBuffer();
const input = await sharp(jpeg).metadata();
if (!input.exif) throw new Error('the test JPEG lost its EXIF');

console.log(machine());
console.log(
  `libvips ${sharp.versions.vips}, sharp ${sharp.versions.sharp ?? '?'}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `Input: ${WIDTH} × ${HEIGHT} JPEG, ${(jpeg.byteLength / 2 ** 20).toFixed(1)} MiB, with EXIF and GPS`,
);

const rssBefore = process.memoryUsage().rss;
const times: number[] = [];
const cpuTimes: number[] = [];
let last: ProcessedImage | undefined;
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  last = await processImage(jpeg);
  const ms = performance.now() - started;
  // Every thread's CPU time: on a machine busy with other work the wall time grows, this does not.
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  times.push(ms);
  cpuTimes.push(cpuMs);
  console.log(`  run ${run}: ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms of CPU time)`);
}
const peak = process.resourceUsage().maxRSS * 1024;

for (const variant of last!.variants) {
  const meta = await sharp(variant.data).metadata();
  if (meta.exif || meta.xmp || meta.icc) throw new Error(`${variant.width}.${variant.format} kept metadata`);
}
const sizes = (format: string) =>
  last!.variants
    .filter((v) => v.format === format)
    .sort((a, b) => a.width - b.width)
    .map((v) => `${v.width}: ${(v.data.byteLength / 1024).toFixed(0)} KiB`)
    .join(', ');

const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
const max = sorted[sorted.length - 1]!;
const cpuMedian = [...cpuTimes].sort((a, b) => a - b)[Math.floor((cpuTimes.length - 1) / 2)]!;
console.log(`Variants (no metadata in any): AVIF ${sizes('avif')}; WebP ${sizes('webp')}`);
console.log(
  `Processing: median ${median.toFixed(0)} ms, slowest ${max.toFixed(0)} ms over ${runs} runs` +
    ` (target under ${TARGET_MS} ms: ${max < TARGET_MS ? 'met' : median < TARGET_MS ? 'met by the median' : 'missed'})`,
);
console.log(`CPU time: median ${cpuMedian.toFixed(0)} ms a run, on ${os.availableParallelism()} cores`);
console.log(`Peak RSS: ${mib(peak)} (${mib(rssBefore)} before the first run, with the test image made)`);
