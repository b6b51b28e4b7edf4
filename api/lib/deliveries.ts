import type { DB } from '../db/database.ts';
import { claimDue, markDelivered, markFailed, nextDueAt } from '../db/queries/deliveries.ts';
import type { DeliveryRow } from '../db/schema.ts';

/** What the queue keeps of a delivered row instead of what was sent (an address to forget). */
export interface KeptAfterSending {
  target: string;
  payload: unknown;
}

/**
 * Sends one delivery; resolves when the other side has accepted it, throws otherwise. It may
 * resolve with what to keep of the row in place of what it sent.
 */
export type Sender = (delivery: {
  id: number;
  /** What the delivery is for (a reply notification, an erasure notice): what a log line may name. */
  purpose: string;
  target: string;
  payload: unknown;
}) => Promise<KeptAfterSending | undefined>;

export interface DeliveryWorker {
  /** Starts the loop: due rows now, then whenever the next one falls due (and every pollMs). */
  start: () => void;
  /** Something was just queued: look now rather than at the next poll. */
  poke: () => void;
  /** One pass: sends every due row it can lease; returns how many were delivered. */
  tick: () => Promise<number>;
  /** Stops the loop and waits for a pass in progress. */
  stop: () => Promise<void>;
}

export interface DeliveryWorkerOptions {
  db: DB;
  /** Senders by kind ('webhook', 'email'). Rows of other kinds are left for another worker. */
  senders: Record<string, Sender>;
  now?: () => Date;
  /** How long a leased row is this worker's; a crash mid-send frees it after this. */
  leaseMs?: number;
  /** The first retry's delay; each further one doubles, up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Rows queued by other server instances are found within this. */
  pollMs?: number;
  batch?: number;
  log?: (message: string) => void;
}

/** An error in one line, with its cause (fetch hides ECONNREFUSED and timeouts there). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** Anything shaped like an email address, as a mail server's refusal quotes the recipient. */
const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+/g;

/** A failure as the log may keep it: logs outlive erasures, so no address goes in. */
const withoutAddresses = (text: string) => text.replace(ADDRESS, 'address');

/** The delay before retry number `attempts` + 1: exponential, capped. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts, 30)));
}

/**
 * The one worker for the deliveries table: it leases due rows, hands each to the sender of its
 * kind and records the outcome. A failure is retried with exponential backoff until it succeeds;
 * nothing is kept in memory, so a restart loses nothing.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 1_000;
  const maxDelayMs = options.maxDelayMs ?? 10 * 60_000;
  const pollMs = options.pollMs ?? 30_000;
  const batch = options.batch ?? 20;
  const log = options.log ?? ((message: string) => console.log(message));
  const kinds = Object.keys(options.senders);

  let running = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pass: Promise<number> | null = null;
  let again = false;

  async function send(row: DeliveryRow): Promise<boolean> {
    const sender = options.senders[row.kind];
    try {
      if (!sender || row.target === null) throw new Error(`no sender for ${row.kind}`);
      const kept = await sender({
        id: row.delivery_id,
        purpose: row.purpose,
        target: row.target,
        payload: JSON.parse(row.payload),
      });
      await markDelivered(options.db, row.delivery_id, now(), kept);
      return true;
    } catch (error) {
      const message = describe(error);
      const next = new Date(now().getTime() + backoffMs(row.attempts, baseDelayMs, maxDelayMs));
      await markFailed(options.db, row.delivery_id, message, next);
      log(
        `Delivery #${row.delivery_id} (${row.purpose}) failed: ${withoutAddresses(message)}; retrying at ${next.toISOString()}`,
      );
      return false;
    }
  }

  async function runPass(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const at = now();
      const rows = await claimDue(options.db, {
        kinds,
        now: at,
        leaseUntil: new Date(at.getTime() + leaseMs),
        limit: batch,
      });
      for (const row of rows) if (await send(row)) delivered += 1;
      if (rows.length < batch) return delivered;
    }
  }

  function tick(): Promise<number> {
    if (pass) {
      again = true;
      return pass;
    }
    pass = runPass().finally(() => {
      pass = null;
      if (again) {
        again = false;
        if (running) void tick().catch(report);
      }
      if (running) void schedule().catch(report);
    });
    return pass;
  }

  const report = (error: unknown) => log(`Delivery worker: ${withoutAddresses(describe(error))}`);

  async function schedule(): Promise<void> {
    if (!running) return;
    const due = await nextDueAt(options.db, kinds);
    const wait = due === null ? pollMs : Math.max(0, Math.min(pollMs, due.getTime() - now().getTime()));
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void tick().catch(report);
    }, wait);
    // The loop never keeps a process alive on its own.
    timer.unref?.();
  }

  return {
    start() {
      if (running) return;
      running = true;
      void tick().catch(report);
    },
    poke() {
      if (running) void tick().catch(report);
    },
    tick,
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await pass?.catch(() => 0);
    },
  };
}

/** POSTs the payload as JSON; any answer but 2xx (or no answer within timeoutMs) is a failure. */
export function createWebhookSender(options: { timeoutMs?: number } = {}): Sender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async ({ id, target, payload }) => {
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Nestling',
        'Idempotency-Key': `delivery-${id}`,
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read the body so the connection is released.
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new Error(`${target} answered ${res.status}`);
    return undefined;
  };
}
