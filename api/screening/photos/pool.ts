// Photo analysis off the main thread: a few worker threads (worker.ts), each with its own copy of
// the models, analysing one photo at a time while the others wait in a queue. A worker that crashes
// or takes too long on a photo is ended and replaced; that photo's promise rejects with
// PhotoAnalysisFailed, and the caller holds the listing with its words. Workers start on the first
// photo, and an idle pool keeps no process alive.
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../node/ts-worker.ts';
import type { PhotoAnalysis } from './analyse.ts';

/** The longest one photo may take in a worker (about 0.6 s is usual on one core). */
export const PHOTO_ANALYSIS_TIMEOUT_MS = 30_000;
/** The longest a worker may take to start: tsx, TensorFlow.js and both models (about 2 s here). */
export const WORKER_START_TIMEOUT_MS = 120_000;
/** Workers that fail to start in a row before the queued photos are given up on. */
export const WORKER_START_FAILURES_MAX = 3;

export const ANALYSER_CLOSED = 'The photo analyser was closed before the photo was analysed.';

/** Why a photo could not be analysed, in plain words (the listing is held with them). */
export class PhotoAnalysisFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhotoAnalysisFailed';
  }
}

export function timedOut(ms: number): string {
  return `The photo analysis took longer than ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`} and was stopped.`;
}

export interface PhotoAnalyserOptions {
  /** Worker threads, each analysing one photo at a time on about one core (default 1). */
  workers?: number;
  /** The longest one photo may take (default PHOTO_ANALYSIS_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface PhotoAnalyser {
  /**
   * Analyses a photo kept by preparePhoto (its JPEG); rejects with PhotoAnalysisFailed when it
   * cannot be. `timeoutMs` overrides the pool's limit for this photo.
   */
  analyse(jpeg: Uint8Array, options?: { timeoutMs?: number }): Promise<PhotoAnalysis>;
  /** Rejects the photos still waiting and ends the workers. */
  close(): Promise<void>;
}

/** What the pool sends a worker. */
export interface WorkerJob {
  id: number;
  jpeg: Uint8Array;
}

/** What a worker answers. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'broken'; reason: string }
  | { type: 'done'; id: number; analysis: PhotoAnalysis }
  | { type: 'failed'; id: number; reason: string };

interface Job extends WorkerJob {
  timeoutMs: number;
  resolve: (analysis: PhotoAnalysis) => void;
  reject: (error: PhotoAnalysisFailed) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** What a worker said before it ended, if it could not load the models. */
  broken: string | null;
}

// TypeScript, run through tsx in its thread (api/node/ts-worker.ts).
const WORKER_URL = new URL('./worker.ts', import.meta.url);

export function createPhotoAnalyser(options: PhotoAnalyserOptions = {}): PhotoAnalyser {
  const size = Math.max(1, Math.floor(options.workers ?? 1));
  const limitMs = options.timeoutMs ?? PHOTO_ANALYSIS_TIMEOUT_MS;
  const queue: Job[] = [];
  const slots = new Set<Slot>();
  let nextId = 1;
  let closed = false;
  let startFailures = 0;

  function spawn(): void {
    const worker = startTsWorker(WORKER_URL);
    const slot: Slot = { worker, ready: false, job: null, timer: null, broken: null };
    slots.add(slot);
    // Ref'd only while it has a photo: an idle pool does not keep the process alive.
    worker.unref();
    slot.timer = setTimeout(
      () => end(slot, `The photo worker did not start within ${WORKER_START_TIMEOUT_MS / 1000} s.`),
      WORKER_START_TIMEOUT_MS,
    );
    slot.timer.unref();
    worker.on('message', (message: WorkerMessage) => receive(slot, message));
    worker.on('error', (error) => end(slot, `The photo worker crashed: ${error.message}`));
    worker.on('exit', (code) => end(slot, `The photo worker stopped (exit code ${code}).`));
  }

  function receive(slot: Slot, message: WorkerMessage): void {
    if (!slots.has(slot)) return;
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        startFailures = 0;
        clearTimer(slot);
        dispatch();
        return;
      case 'broken':
        slot.broken = message.reason;
        return;
      case 'done':
      case 'failed': {
        const job = slot.job;
        if (!job || job.id !== message.id) return;
        clearTimer(slot);
        slot.job = null;
        slot.worker.unref();
        if (message.type === 'done') job.resolve(message.analysis);
        else job.reject(new PhotoAnalysisFailed(message.reason));
        dispatch();
        return;
      }
    }
  }

  /** Ends a worker that crashed, stopped or ran out of time; its photo fails, another takes its place. */
  function end(slot: Slot, reason: string): void {
    if (!slots.has(slot)) return;
    slots.delete(slot);
    clearTimer(slot);
    void slot.worker.terminate().catch(() => undefined);
    if (slot.job) slot.job.reject(new PhotoAnalysisFailed(reason));
    slot.job = null;
    if (!slot.ready) {
      startFailures++;
      if (startFailures >= WORKER_START_FAILURES_MAX) {
        // The models will not load (a broken install, no memory): say so rather than try for ever.
        // The next photo tries again.
        const failure = new PhotoAnalysisFailed(slot.broken ?? reason);
        for (const job of queue.splice(0)) job.reject(failure);
        return;
      }
    }
    fill();
  }

  function fill(): void {
    if (closed || queue.length === 0) return;
    while (slots.size < size) spawn();
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      slot.timer = setTimeout(() => end(slot, timedOut(job.timeoutMs)), job.timeoutMs);
      slot.timer.unref();
      const message: WorkerJob = { id: job.id, jpeg: job.jpeg };
      slot.worker.postMessage(message, [job.jpeg.buffer as ArrayBuffer]);
    }
  }

  function clearTimer(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
  }

  return {
    analyse(jpeg, callOptions = {}) {
      if (closed) return Promise.reject(new PhotoAnalysisFailed(ANALYSER_CLOSED));
      return new Promise<PhotoAnalysis>((resolve, reject) => {
        // A copy of its own, handed over to the worker without another copy.
        const bytes = new Uint8Array(jpeg.byteLength);
        bytes.set(jpeg);
        queue.push({
          id: nextId++,
          jpeg: bytes,
          timeoutMs: callOptions.timeoutMs ?? limitMs,
          resolve,
          reject,
        });
        if (startFailures >= WORKER_START_FAILURES_MAX) startFailures = 0;
        fill();
        dispatch();
      });
    },
    async close() {
      closed = true;
      const failure = new PhotoAnalysisFailed(ANALYSER_CLOSED);
      for (const job of queue.splice(0)) job.reject(failure);
      const ending = [...slots];
      slots.clear();
      await Promise.all(
        ending.map(async (slot) => {
          clearTimer(slot);
          slot.job?.reject(failure);
          slot.job = null;
          await slot.worker.terminate().catch(() => undefined);
        }),
      );
    },
  };
}
