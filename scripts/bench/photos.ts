// npm run bench:photos [-- <runs>] — a listing photo analysed the way screening analyses one: a
// 1600 × 1200 JPEG (the astronaut of tests/fixtures/photos, a public-domain NASA photograph, scaled
// up by sharp) prepared (re-encoded without metadata, api/screening/photos/prepare.ts) and analysed
// in the worker pool (nsfwjs and face-api on the TensorFlow.js WebAssembly backend, pool.ts).
// Prints the time a photo takes on one worker (median and p95, the models' own share beside it),
// the photos a second two workers get through, the process's peak memory (worker threads
// included) and the main thread's event-loop delay while photos are analysed (target: p99 under
// 50 ms, so the API stays responsive).
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { createPhotoAnalyser, type PhotoAnalyser } from '../../api/screening/photos/pool.ts';
import { preparePhoto } from '../../api/screening/photos/prepare.ts';
import { machine, mib } from './lib.ts';

const LOOP_TARGET_MS = 50;
const WIDTH = 1600;
const HEIGHT = 1200;
const runs = Number(process.argv[2] ?? 20);
if (!Number.isInteger(runs) || runs < 1) throw new Error('runs: a whole number of at least 1');

const source = fs.readFileSync(new URL('../../tests/fixtures/photos/astronaut.jpg', import.meta.url));
const input = await sharp(source).resize(WIDTH, HEIGHT, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

console.log(machine());
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`Input: ${WIDTH} × ${HEIGHT} JPEG, ${(input.byteLength / 1024).toFixed(0)} KiB`);

// Preparing, on the main process (sharp works on its own threads).
const prepareTimes: number[] = [];
let jpeg: Buffer = Buffer.alloc(0);
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  const prepared = await preparePhoto(input);
  prepareTimes.push(performance.now() - started);
  if (!prepared.ok) throw new Error(prepared.reason);
  jpeg = prepared.jpeg;
}
console.log(
  `Prepare (decode, re-encode, analysis pixels): median ${percentile(prepareTimes, 50).toFixed(0)} ms`,
);

/** The main thread's event-loop delay over one phase (a monitor of its own: re-enabling one would count the pause). */
function watchLoop() {
  const monitor = monitorEventLoopDelay({ resolution: 10 });
  monitor.enable();
  return () => {
    monitor.disable();
    return { p99: monitor.percentile(99) / 1e6, max: monitor.max / 1e6 };
  };
}
const loopText = (loop: { p99: number; max: number }) =>
  `p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms (target p99 under ${LOOP_TARGET_MS} ms: ${loop.p99 < LOOP_TARGET_MS ? 'met' : 'missed'})`;

async function started(workers: number): Promise<{ analyser: PhotoAnalyser; ms: number }> {
  const analyser = createPhotoAnalyser({ workers });
  const begun = performance.now();
  // One photo a worker: they start (tsx, TensorFlow.js, both models) and warm up.
  await Promise.all(Array.from({ length: workers }, () => analyser.analyse(jpeg)));
  return { analyser, ms: performance.now() - begun };
}

// One worker, one photo at a time: what a photo costs on one core.
const one = await started(1);
console.log(`One worker started and warm in ${one.ms.toFixed(0)} ms`);
const times: number[] = [];
const modelTimes: number[] = [];
let faces = 0;
const stopOne = watchLoop();
// Every thread's CPU time: on a machine busy with other work the wall time grows, this does not.
const cpu = process.cpuUsage();
for (let run = 1; run <= runs; run++) {
  const begun = performance.now();
  const analysis = await one.analyser.analyse(jpeg);
  times.push(performance.now() - begun);
  modelTimes.push(analysis.ms);
  faces = analysis.faces.length;
}
const loopOne = stopOne();
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000 / runs;
await one.analyser.close();
const peakOne = process.resourceUsage().maxRSS * 1024;
console.log(
  `One worker: median ${percentile(times, 50).toFixed(0)} ms a photo, p95 ${percentile(times, 95).toFixed(0)} ms ` +
    `over ${runs} photos (the models' share: median ${percentile(modelTimes, 50).toFixed(0)} ms; ` +
    `${cpuMs.toFixed(0)} ms of CPU time a photo, all threads); ${faces} face(s) found`,
);

// Two workers, every photo queued at once: throughput on this machine's two cores.
const two = await started(2);
const batch = runs * 2;
const stopTwo = watchLoop();
const begun = performance.now();
await Promise.all(Array.from({ length: batch }, () => two.analyser.analyse(jpeg)));
const elapsed = performance.now() - begun;
const loopTwo = stopTwo();
await two.analyser.close();
console.log(
  `Two workers: ${batch} photos in ${(elapsed / 1000).toFixed(1)} s, ${((batch / elapsed) * 1000).toFixed(2)} photos/s`,
);

console.log(
  `Main thread event-loop delay while photos are analysed: one worker ${loopText(loopOne)}; two workers ${loopText(loopTwo)}`,
);
console.log(
  `Peak RSS (the process with its worker threads): ${mib(peakOne)} with one worker, ${mib(process.resourceUsage().maxRSS * 1024)} with two`,
);
