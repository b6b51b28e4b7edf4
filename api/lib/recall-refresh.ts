import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { DB } from '../db/database.ts';
import {
  claimRecallRefresh,
  failRecallRefresh,
  finishRecallRefresh,
  lastImportFrom,
  type RecallImportResult,
  readRecallRows,
  storeRecallRows,
} from '../db/queries/recall-imports.ts';
import type { PublishService } from '../types.ts';

// The daily refresh from RECALLS_URL (docs/product.md, "Recall screening"): every instance ticks;
// the one that claims the day's row imports, the others skip. A failed try is retried with a
// growing wait (5 min, 10, 20, … at most 6 h), not only the next day.

/** How often the server looks whether a refresh is due. */
export const RECALL_REFRESH_TICK_MS = 5 * 60_000;
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 6 * 60 * 60_000;
/** How long a claim lasts without finishing: a crashed instance's claim frees itself after this. */
const LEASE_MS = 15 * 60_000;
const FETCH_TIMEOUT_MS = 5 * 60_000;

/** The wait before the next try after `failures` failed tries in a row. */
export const refreshBackoffMs = (failures: number): number =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), LONGEST_RETRY_MS);

/** A feed address without its user name and password, as the import's source (shown publicly). */
export function sourceName(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

/**
 * Fetches a feed's bytes; throws an Error that says why not (the answer's status, or the network
 * error's code), without the address's credentials.
 */
export async function fetchRecallFeed(url: string, stop?: AbortSignal): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`Could not reach ${sourceName(url)}: ${why}.`, { cause: error });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${sourceName(url)} answered ${res.status} ${res.statusText}`.trimEnd() + '.');
  }
  // Bytes, not text: the importer parses the records one by one (see api/recalls/feed.ts).
  return new Uint8Array(await res.arrayBuffer());
}

/** A feed's bytes from a file or an http(s) address (npm run recalls:import and its benchmark). */
export async function readRecallFeed(target: string): Promise<Uint8Array> {
  if (/^https?:\/\//i.test(target)) return fetchRecallFeed(target);
  try {
    return fs.readFileSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(`There is no file ${target}.`, { cause: error });
  }
}

/**
 * What npm run recalls:import does (and its benchmark measures): reads a file or an address and
 * imports it, named by the file as given or the address without credentials.
 */
export async function importRecallSource(
  db: DB,
  target: string,
  now: Date,
): Promise<{ source: string; result: RecallImportResult }> {
  const source = /^https?:\/\//i.test(target) ? sourceName(target) : target;
  // The feed's bytes are let go once read into rows.
  const rows = readRecallRows(await readRecallFeed(target));
  return { source, result: await storeRecallRows(db, rows, source, now) };
}

/** `url` asking only for what was published since `since` (ISO) where the service allows it. */
export function changedSince(url: string, since: string | null): string {
  if (!since) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('LastPublishDateStart', since.slice(0, 10));
  return parsed.href;
}

export type RefreshOutcome =
  | { state: 'skipped' }
  | { state: 'imported'; result: RecallImportResult }
  | { state: 'failed'; error: string; failures: number; retryAt: string };

export interface RecallRefresherOptions {
  db: DB;
  /** RECALLS_URL. */
  url: string;
  /** Asked for a publish after a refresh that changed data, so pages show it. */
  publisher?: Pick<PublishService, 'request'>;
  now?: () => Date;
  log?: (line: string) => void;
  /** This instance's name in the claim. */
  instance?: string;
}

export interface RecallRefresher {
  /** Refreshes when today's refresh is due and this instance claims it; one tick at a time. */
  tick: () => Promise<RefreshOutcome>;
  /** Ticks now and every RECALL_REFRESH_TICK_MS. */
  start: () => void;
  /** Stops ticking and waits for a tick in progress. */
  stop: () => Promise<void>;
}

export function createRecallRefresher(options: RecallRefresherOptions): RecallRefresher {
  const { db, url } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const instance = options.instance ?? `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const source = sourceName(url);
  let running: Promise<RefreshOutcome> | null = null;
  let timer: NodeJS.Timeout | null = null;
  // Aborts a fetch in progress when the server stops (the claim's lease then frees itself).
  const stopping = new AbortController();

  async function refresh(): Promise<RefreshOutcome> {
    if (!(await claimRecallRefresh(db, instance, now(), LEASE_MS))) return { state: 'skipped' };
    try {
      const since = await lastImportFrom(db, source);
      const rows = readRecallRows(await fetchRecallFeed(changedSince(url, since), stopping.signal));
      const result = await storeRecallRows(db, rows, source, now(), {
        // Committed only while the claim is still ours, so two instances never both import.
        beforeCommit: async (trx) => {
          if (!(await finishRecallRefresh(trx, instance, now()))) {
            throw new Error(
              'Lost the claim on the recall refresh to another instance; nothing was imported.',
            );
          }
        },
      });
      log(
        `Recall refresh: ${result.records} record(s), ${result.added} added, ${result.updated} updated, ` +
          `${result.unchanged} unchanged; ${result.raised} possible match(es) raised.`,
      );
      if (result.added + result.updated > 0) await options.publisher?.request('recall refresh');
      return { state: 'imported', result };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const { failures, retryAt } = await failRecallRefresh(db, instance, now(), refreshBackoffMs);
      log(`Recall refresh failed (try ${failures}); next try from ${retryAt}. ${message}`);
      return { state: 'failed', error: message, failures, retryAt };
    }
  }

  const tick = () => {
    running ??= refresh()
      .catch((error: unknown): RefreshOutcome => {
        // The database itself failed (the claim could not be read): the next tick tries again.
        log(`Recall refresh: ${error instanceof Error ? error.message : String(error)}`);
        return { state: 'skipped' };
      })
      .finally(() => (running = null));
    return running;
  };

  return {
    tick,
    start() {
      void tick();
      timer = setInterval(() => void tick(), RECALL_REFRESH_TICK_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      stopping.abort();
      await running;
    },
  };
}
