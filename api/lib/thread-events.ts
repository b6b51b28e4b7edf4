// Live threads (docs/decisions/026-live-threads.md): one hub per server instance keeps every open
// thread stream and hands each of them the changes of its thread. Changes are rows of
// `thread_events`, written in the transaction of the change; the hub reads the rows after the
// last one it has seen (one query for every open stream, never one per stream) when this instance
// has written, when another instance says it has (PostgreSQL LISTEN/NOTIFY), and every few
// seconds while streams are open in case a notice was lost. A page that reconnects resumes after
// the last change it saw (Last-Event-ID).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Reply } from '../contract.ts';
import { STREAM_HEARTBEAT_MS, type ThreadChange, type ThreadChanges } from '../contract/live-threads.ts';
import type { DB } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';
import { pgDriver } from '../db/pg.ts';
import { threadChanges } from '../db/queries/thread-changes.ts';
import {
  latestThreadEventId,
  oldestThreadEventId,
  pruneThreadEvents,
  readEventsAfter,
  readPostEvents,
  type ThreadEvent,
} from '../db/queries/thread-events.ts';

/** The channel instances NOTIFY on after a change to a thread. */
export const THREAD_EVENTS_CHANNEL = 'nestling_thread_events';
/** The listener's application_name, so an operator (or a test) can find its connection. */
export const LISTENER_NAME = 'nestling-thread-listener';

/**
 * After a fan-out the hub rests this many times as long as the fan-out took, so that handing out
 * changes keeps about a tenth of the thread (bench:streams: a fan-out to 2,000 streams took
 * 90–210 ms on a busy machine, most of it one socket write a stream, whatever it carries).
 */
const REST_PER_FAN_OUT = 9;
/** The longest rest, so a change still reaches every stream within the second bench:streams allows it. */
const REST_MAX_MS = 250;
/**
 * The rest is only for the requests that need the thread: when they kept it busy less than half
 * the time since the last fan-out, judged over at least JUDGE_MS (a shorter time is mostly the
 * request that wrote), the next one goes then (single comments wait no longer than that).
 */
const BUSY = 0.5;
const JUDGE_MS = 40;
/** Events read at a time. */
const BATCH = 1_000;
/** A page that missed more of its thread's changes than this reloads the thread instead. */
const CATCH_UP_MAX = 500;
const encoder = new TextEncoder();

export interface ThreadHubOptions {
  db: DB;
  now?: () => Date;
  /** DATABASE_URL on PostgreSQL: a connection of the hub's own LISTENs for other instances' changes. */
  listenUrl?: string | null;
  /** What a stream may have waiting for a reader that does not read; beyond it the stream is dropped. */
  maxBufferedBytes?: number;
  heartbeatMs?: number;
  /**
   * How long a missing id is waited for. On PostgreSQL an id is taken when the event is written
   * and becomes readable at commit, so a later id can be read first; one whose transaction rolled
   * back never comes.
   */
  gapWaitMs?: number;
  /** How often the hub reads anyway while streams are open (a lost notice, a command's write). */
  pollMs?: number;
  /** The longest rest after a fan-out (bench:streams compares shorter ones). */
  restMaxMs?: number;
}

export interface ThreadHub {
  /** Reads where the changes stand and starts listening; open() and changesAfter() wait for it. */
  start: () => Promise<void>;
  /**
   * A stream of one post's changes after `after` (null: from now on), in text/event-stream form,
   * as a web stream (in-process use: app.request, tests).
   */
  open: (postId: number, after: number | null) => Promise<ReadableStream<Uint8Array>>;
  /**
   * The same stream written straight to a Node response with `headers` and status 200; headers
   * already set on it stay. It throws before anything is written when the catch-up cannot be
   * read, so the caller can still answer the error.
   */
  serve: (
    postId: number,
    after: number | null,
    res: ServerResponse,
    headers: OutgoingHttpHeaders,
  ) => Promise<void>;
  /** The polling fallback: one post's changes after `after`. */
  changesAfter: (postId: number, after: number) => Promise<ThreadChanges<Reply>>;
  /** After a write on this instance: hand out its changes now, and tell the other instances. */
  written: () => void;
  /** Reads and hands out what changed since the last read. */
  poke: () => void;
  /** Ends every stream (the pages reconnect elsewhere) and stops listening. */
  close: () => Promise<void>;
  /** Open streams, the last change read, and the fan-outs so far and their time (tests, the benchmark). */
  stats: () => { streams: number; cursor: number; fanOuts: number; fanOutMs: number; rests: number };
}

/** Where one stream's bytes go: the Node response it is served on, or a web stream. */
interface Sink {
  /** Hands the reader a chunk; false when too much already waits for them (the caller drops the stream). */
  write: (chunk: Uint8Array) => boolean;
  /** Ends the stream: a graceful stop (the page reconnects elsewhere). */
  end: () => void;
  /** Drops the stream and what waits in it for a reader who does not read. */
  drop: () => void;
}

interface Stream {
  postId: number;
  sink: Sink;
  /** Changes up to this id are already sent (or covered by the catch-up). */
  sentUpTo: number;
  /** While the catch-up is read, live changes wait here, so they go out after it, in order. */
  held: { id: number; chunk: Uint8Array }[] | null;
  closed: boolean;
}

/**
 * A Node response as a stream's sink. Written to directly, not through a web ReadableStream: in
 * a CPU profile of a fan-out to 2,000 streams the web stream and the adapter's piping of it took
 * about a fifth of the thread. What Node holds unsent for the socket is the reader's backlog.
 */
function responseSink(res: ServerResponse, maxBuffered: number): Sink {
  return {
    write(chunk) {
      if (res.destroyed || res.writableEnded || !fits(res.writableLength, chunk, maxBuffered)) return false;
      res.write(chunk);
      return true;
    },
    end: () => res.end(),
    drop: () => res.destroy(),
  };
}

function joined(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const eventText = (change: ThreadChange<Reply>) =>
  `id: ${change.id}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;
const message = (change: ThreadChange<Reply>) => encoder.encode(eventText(change));

/**
 * Whether a chunk may join what already waits for a reader: within the bound, or the first chunk
 * whatever its size (a catch-up of many changes).
 */
const fits = (waiting: number, chunk: Uint8Array, bound: number) =>
  waiting <= 0 || waiting + chunk.byteLength <= bound;

export function createThreadHub(options: ThreadHubOptions): ThreadHub {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024;
  const gapWaitMs = options.gapWaitMs ?? 3_000;
  const restMaxMs = options.restMaxMs ?? REST_MAX_MS;
  const postgres = isPostgres(db);
  const byPost = new Map<number, Set<Stream>>();
  let streamCount = 0;
  let cursor = 0;
  let started: Promise<void> | null = null;
  let closing = false;
  let draining: Promise<void> | null = null;
  let again = false;
  let gap: { at: number; since: number } | null = null;
  let gapTimer: ReturnType<typeof setTimeout> | null = null;
  const timers: ReturnType<typeof setInterval>[] = [];
  let listener: pg.Client | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Fan-outs that wrote to streams, and the milliseconds they took (for the benchmark). */
  let fanOuts = 0;
  let fanOutMs = 0;
  /** Reads that waited for a rest to end. */
  let rests = 0;
  /** When the last fan-out began handing out its chunks. */
  let fanOutBegan = 0;
  /** The event loop's use when the last fan-out ended (and when): how busy requests have kept it since. */
  let fanOutEnded: EventLoopUtilization | null = null;
  let fanOutEndedAt = 0;

  function remove(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    streamCount -= 1;
    const set = byPost.get(stream.postId);
    set?.delete(stream);
    if (set?.size === 0) byPost.delete(stream.postId);
  }

  /** Writes a chunk; a reader that has let its backlog fill is dropped, and the backlog with it. */
  function enqueue(stream: Stream, chunk: Uint8Array) {
    if (stream.closed) return;
    if (!stream.sink.write(chunk)) {
      remove(stream);
      stream.sink.drop();
    }
  }

  function send(stream: Stream, id: number, chunk: Uint8Array) {
    if (stream.closed || id <= stream.sentUpTo) return;
    if (stream.held) {
      stream.held.push({ id, chunk });
      return;
    }
    stream.sentUpTo = id;
    enqueue(stream, chunk);
  }

  /**
   * Hands a read's changes to their threads' streams: one chunk a thread with all its changes, so
   * a busy thread costs one write a stream a read, not one a comment (bench:streams: writes with
   * 2,000 streams open fell from 226/s to 7/s when each change was written to each stream alone).
   */
  async function fanOut(events: ThreadEvent[]) {
    const watched = events.filter((e) => byPost.has(e.post_id));
    if (watched.length === 0) return;
    const postOf = new Map(watched.map((e) => [e.event_id, e.post_id]));
    const byThread = new Map<number, { id: number; chunk: Uint8Array }[]>();
    for (const change of await threadChanges(db, watched, now())) {
      const postId = postOf.get(change.id)!;
      const list = byThread.get(postId) ?? [];
      list.push({ id: change.id, chunk: message(change) });
      byThread.set(postId, list);
    }
    const began = performance.now();
    let written = 0;
    for (const [postId, changes] of byThread) {
      const streams = byPost.get(postId);
      if (!streams) continue;
      const first = changes[0]!.id;
      const last = changes[changes.length - 1]!.id;
      const whole = changes.length === 1 ? changes[0]!.chunk : joined(changes.map((c) => c.chunk));
      for (const stream of streams) {
        // A stream still catching up, or one that has some of these already, takes them one by one.
        if (stream.held || stream.sentUpTo >= first) {
          for (const { id, chunk } of changes) send(stream, id, chunk);
        } else if (!stream.closed) {
          stream.sentUpTo = last;
          enqueue(stream, whole);
        }
        written += 1;
      }
    }
    if (written === 0) return;
    fanOutBegan = began;
    fanOuts += 1;
  }

  /** Reads one batch of events after the cursor; true when more may follow at once. */
  async function readOnce(): Promise<boolean> {
    const events = await readEventsAfter(db, cursor, BATCH);
    const accepted: ThreadEvent[] = [];
    let expected = cursor + 1;
    let blocked = false;
    for (const event of events) {
      if (event.event_id !== expected) {
        const at = Date.now();
        if (gap?.at !== expected) gap = { at: expected, since: at };
        if (at - gap.since < gapWaitMs) {
          blocked = true;
          break;
        }
      }
      gap = null;
      accepted.push(event);
      expected = event.event_id + 1;
    }
    if (accepted.length > 0) {
      // The cursor moves once the changes are handed out: a failed read is read again, and a
      // stream that already has a change skips it.
      await fanOut(accepted);
      cursor = accepted[accepted.length - 1]!.event_id;
    }
    if (blocked && !gapTimer && !closing) {
      gapTimer = setTimeout(() => {
        gapTimer = null;
        poke();
      }, 50);
      gapTimer.unref?.();
    }
    return !blocked && events.length === BATCH;
  }

  /**
   * After a read that handed changes out, the next one waits nine times as long as that fan-out
   * took (at most restMaxMs), while requests keep the thread busy: they run meanwhile, and the
   * writes they make go out together in one chunk a stream. Most of a fan-out's cost is one write
   * a stream, so fewer, larger fan-outs cost less. Handing out each comment at once spent the
   * thread on fan-outs of one comment each (bench:streams).
   */
  let restUntil = 0;
  let restTimer: ReturnType<typeof setTimeout> | null = null;

  function poke() {
    if (closing || !started) return;
    if (draining) {
      again = true;
      return;
    }
    const at = performance.now();
    const rest = restUntil - at;
    if (rest > 0 && fanOutEnded) {
      const judged = at - fanOutEndedAt >= JUDGE_MS;
      const busy = judged && performance.eventLoopUtilization(fanOutEnded).utilization >= BUSY;
      if (!judged || busy) {
        if (!restTimer) {
          if (busy) rests += 1;
          restTimer = setTimeout(
            () => {
              restTimer = null;
              poke();
            },
            busy ? rest : Math.min(rest, fanOutEndedAt + JUDGE_MS - at),
          );
          restTimer.unref?.();
        }
        return;
      }
    }
    draining = (async () => {
      try {
        await started;
        do {
          again = false;
          const fanOutsBefore = fanOuts;
          if (await readOnce()) again = true;
          if (fanOuts === fanOutsBefore) continue;
          // Node sends each response's chunk to its socket in a tick of its own (it corks the
          // socket until then); those sends are most of a fan-out's cost, so it is timed until
          // they are done (a tick queued now runs after them, before any other request's I/O).
          await new Promise((resolve) => process.nextTick(resolve));
          const took = performance.now() - fanOutBegan;
          fanOutMs += took;
          fanOutEnded = performance.eventLoopUtilization();
          fanOutEndedAt = performance.now();
          const rest = Math.min(took * REST_PER_FAN_OUT, restMaxMs);
          if (rest >= 1) {
            restUntil = performance.now() + rest;
            // Let go: what came meanwhile (or is left) is read once the rest is over.
            if (again) {
              again = false;
              setTimeout(poke, rest).unref?.();
            }
          }
        } while (again && !closing);
      } catch (error) {
        // The database is away for a moment: the next poke (or the poll) reads from the same cursor.
        if (!closing) console.error('Live threads: reading changes failed:', (error as Error).message);
      } finally {
        draining = null;
      }
    })();
  }

  let notifying: Promise<void> | null = null;
  let notifyAgain = false;
  /** One NOTIFY at a time per instance; writes meanwhile are covered by one more. */
  function notifyOthers() {
    if (!postgres || closing) return;
    if (notifying) {
      notifyAgain = true;
      return;
    }
    notifying = sql`select pg_notify(${THREAD_EVENTS_CHANNEL}, '')`
      .execute(db)
      .then(
        () => undefined,
        (error: Error) => console.error('Live threads: NOTIFY failed:', error.message),
      )
      .finally(() => {
        notifying = null;
        if (notifyAgain) {
          notifyAgain = false;
          notifyOthers();
        }
      });
  }

  /** A connection of its own that LISTENs; it reconnects by itself and then catches up from the cursor. */
  function listen(url: string, delay = 500) {
    if (closing) return;
    const { Client } = pgDriver();
    const client = new Client({ connectionString: url, application_name: LISTENER_NAME });
    listener = client;
    let lost = false;
    const reconnect = (error?: Error) => {
      if (lost || closing) return;
      lost = true;
      if (error) console.error('Live threads: the listening connection was lost:', error.message);
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      reconnectTimer = setTimeout(() => listen(url, Math.min(delay * 2, 10_000)), delay);
      reconnectTimer.unref?.();
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', () => poke());
    client
      .connect()
      .then(() => client.query(`LISTEN ${THREAD_EVENTS_CHANNEL}`))
      .then(() => {
        delay = 500;
        // What changed while it was away.
        poke();
      })
      .catch(reconnect);
  }

  async function catchUp(postId: number, after: number, upTo: number) {
    if (after >= upTo) return { changes: [], reset: false };
    const oldest = await oldestThreadEventId(db);
    // Changes after `after` have been pruned: the page reloads the thread.
    if (oldest === null || after + 1 < oldest) return { changes: [], reset: true };
    const events = await readPostEvents(db, postId, { after, upTo, limit: CATCH_UP_MAX + 1 });
    if (events.length > CATCH_UP_MAX) return { changes: [], reset: true };
    return { changes: await threadChanges(db, events, now()), reset: false };
  }

  /** A stream of the post's changes, held until its first chunk has gone out. */
  function register(postId: number, sink: Sink): Stream {
    const stream: Stream = { postId, sink, sentUpTo: cursor, held: [], closed: false };
    let streams = byPost.get(postId);
    if (!streams) byPost.set(postId, (streams = new Set()));
    streams.add(stream);
    streamCount += 1;
    return stream;
  }

  /**
   * A new stream's first chunk: the reconnect delay, its catch-up after `after` and `ready`, in
   * one write. Live changes that come meanwhile are held for begin(). A failed read removes the
   * stream and throws, before anything was written.
   */
  async function prelude(stream: Stream, after: number | null): Promise<Uint8Array> {
    const upTo = stream.sentUpTo;
    // Reconnect after 3 s when the connection drops (the browser's default is about as long).
    const parts = ['retry: 3000\n\n'];
    try {
      if (after !== null) {
        const { changes, reset } = await catchUp(stream.postId, after, upTo);
        if (reset) parts.push(`id: ${upTo}\nevent: reset\ndata: {}\n\n`);
        for (const change of changes) parts.push(eventText(change));
      }
    } catch (error) {
      remove(stream);
      throw error;
    }
    // Where the page stands now: a reconnect without a change since resumes from here.
    stream.sentUpTo = Math.max(upTo, after ?? 0);
    parts.push(`${after === null || after <= upTo ? `id: ${upTo}\n` : ''}event: ready\ndata: {}\n\n`);
    return encoder.encode(parts.join(''));
  }

  /** Writes a stream's first chunk, then the live changes held for it meanwhile. */
  function begin(stream: Stream, first: Uint8Array) {
    const held = stream.held ?? [];
    stream.held = null;
    enqueue(stream, first);
    for (const { id, chunk } of held) send(stream, id, chunk);
  }

  function every(ms: number, run: () => void) {
    const timer = setInterval(run, ms);
    timer.unref?.();
    timers.push(timer);
  }

  const hub: ThreadHub = {
    start() {
      started ??= (async () => {
        cursor = await latestThreadEventId(db);
        const heartbeat = encoder.encode(': \n\n');
        every(options.heartbeatMs ?? STREAM_HEARTBEAT_MS, () => {
          for (const streams of byPost.values()) {
            // One still opening sends its first chunk first.
            for (const stream of streams) if (!stream.held) enqueue(stream, heartbeat);
          }
        });
        every(options.pollMs ?? 5_000, () => {
          if (streamCount > 0) poke();
        });
        every(3_600_000, () => void pruneThreadEvents(db, now()).catch(() => undefined));
        if (options.listenUrl) listen(options.listenUrl);
      })();
      return started;
    },

    async open(postId, after) {
      await hub.start();
      // A reconnect that reaches an instance on its way down: it ends at once and tries again.
      if (closing) return new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>(
        {
          start: (c) => {
            controller = c;
          },
          cancel: () => remove(stream),
        },
        new ByteLengthQueuingStrategy({ highWaterMark: maxBuffered }),
      );
      const stream = register(postId, {
        write(chunk) {
          if (!fits(maxBuffered - (controller.desiredSize ?? 0), chunk, maxBuffered)) return false;
          controller.enqueue(chunk);
          return true;
        },
        end() {
          try {
            controller.close();
          } catch {
            // Already errored (a dropped reader).
          }
        },
        drop: () => controller.error(new Error('The reader fell too far behind.')),
      });
      const first = await prelude(stream, after);
      if (stream.closed) stream.sink.end();
      else begin(stream, first);
      return body;
    },

    async serve(postId, after, res, headers) {
      await hub.start();
      if (closing) {
        res.writeHead(200, headers).end();
        return;
      }
      const stream = register(postId, responseSink(res, maxBuffered));
      res.once('close', () => remove(stream));
      const first = await prelude(stream, after);
      // The page left while its catch-up was read.
      if (res.destroyed) return remove(stream);
      res.writeHead(200, headers);
      if (stream.closed) res.end();
      else begin(stream, first);
    },

    async changesAfter(postId, after) {
      await hub.start();
      const upTo = cursor;
      const { changes, reset } = await catchUp(postId, after, upTo);
      return { changes, reset, last: Math.max(upTo, after) };
    },

    written() {
      poke();
      notifyOthers();
    },

    poke,

    async close() {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      if (gapTimer) clearTimeout(gapTimer);
      if (restTimer) clearTimeout(restTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      for (const streams of byPost.values()) {
        for (const stream of [...streams]) {
          remove(stream);
          // One still opening is ended by its opener, once its answer has begun.
          if (!stream.held) stream.sink.end();
        }
      }
      byPost.clear();
      await Promise.all([draining, notifying, listener?.end().catch(() => undefined)]);
    },

    stats: () => ({ streams: streamCount, cursor, fanOuts, fanOutMs, rests }),
  };
  return hub;
}
