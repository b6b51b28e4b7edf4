// Drafts save by themselves and a lost connection loses no typing (docs/product.md, "The
// studio"): every change is kept in this browser at once, sent about a second after typing stops
// (and when the page is left), and forgotten only once the server has it. Offline, it waits for
// the browser to be back online and sends it then.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StudioPostFields } from '../../../api/contract/studio.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';

export const SAVE_DELAY_MS = 1_000;

/** What this browser keeps of a post the server does not have yet. */
export interface KeptDraft {
  fields: StudioPostFields;
  /** The revision the changes were made on (null for a post not created yet). */
  baseRevision: number | null;
  keptAt: string;
}

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'offline' }
  | { kind: 'failed'; message: string }
  | { kind: 'conflict' };

export type SaveResult = { kind: 'saved'; at: string } | { kind: 'conflict' };

const PREFIX = 'nestling:studio-draft:';

/** The storage key of a post's kept draft: its id, or "new" for one not created yet. */
export const draftKey = (postId: number | null) => `${PREFIX}${postId ?? 'new'}`;

function isKept(value: unknown): value is KeptDraft {
  return (
    typeof value === 'object' &&
    value !== null &&
    'fields' in value &&
    typeof value.fields === 'object' &&
    value.fields !== null &&
    'keptAt' in value &&
    typeof value.keptAt === 'string'
  );
}

export function readKept(key: string): KeptDraft | null {
  try {
    const text = localStorage.getItem(key);
    const parsed: unknown = text ? JSON.parse(text) : null;
    return isKept(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function writeKept(key: string, draft: KeptDraft): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or refused (private browsing): the server save still runs.
  }
}

function removeKept(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing was kept.
  }
}

/** A failure of the connection (no answer at all), as opposed to an answer saying no. */
const isOffline = (error: unknown) =>
  !(error instanceof ApiError) || (typeof navigator !== 'undefined' && navigator.onLine === false);

interface Options {
  /** draftKey(postId): where this post's changes are kept. */
  storageKey: string;
  /** The revision the editor's text is based on now, kept beside the changes. */
  baseRevision: () => number | null;
  /** Sends the fields to the server. */
  save: (fields: StudioPostFields) => Promise<SaveResult>;
  delayMs?: number;
}

export function useDraftKeeping({ storageKey, baseRevision, save, delayMs = SAVE_DELAY_MS }: Options) {
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  // Read once, when the editor opens: changes a reload (or a crash) left behind.
  const [restored] = useState<KeptDraft | null>(() => readKept(storageKey));
  const unsaved = useRef<StudioPostFields | null>(null);
  const edits = useRef(0);
  const keys = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const running = useRef<Promise<void> | null>(null);
  const latest = useRef({ storageKey, baseRevision, save });
  latest.current = { storageKey, baseRevision, save };

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    while (running.current) await running.current;
    const fields = unsaved.current;
    if (!fields) return;
    const edit = edits.current;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setState({ kind: 'offline' });
      return;
    }
    setState({ kind: 'saving' });
    running.current = (async () => {
      try {
        const result = await latest.current.save(fields);
        if (result.kind === 'conflict') {
          setState({ kind: 'conflict' });
          return;
        }
        if (edits.current !== edit) return; // newer typing is kept, and its own save is on its way
        unsaved.current = null;
        for (const key of keys.current) removeKept(key);
        keys.current.clear();
        setState({ kind: 'saved', at: result.at });
      } catch (error) {
        setState(isOffline(error) ? { kind: 'offline' } : { kind: 'failed', message: errorMessage(error) });
      } finally {
        running.current = null;
      }
    })();
    await running.current;
  }, []);

  /** The editor's fields changed: keep them here now, send them when typing stops. */
  const edit = useCallback(
    (fields: StudioPostFields) => {
      unsaved.current = fields;
      edits.current += 1;
      const { storageKey: key, baseRevision: base } = latest.current;
      writeKept(key, { fields, baseRevision: base(), keptAt: new Date().toISOString() });
      keys.current.add(key);
      setState((now) => (now.kind === 'offline' || now.kind === 'conflict' ? now : { kind: 'unsaved' }));
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delayMs);
    },
    [delayMs, flush],
  );

  /** Forgets the unsaved changes (the editor took the server's version instead). */
  const discard = useCallback((at: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    unsaved.current = null;
    for (const key of [...keys.current, latest.current.storageKey]) removeKept(key);
    keys.current.clear();
    setState({ kind: 'saved', at });
  }, []);

  // Back online: send what waited. Leaving the page: send it now (it is kept here either way).
  useEffect(() => {
    const retry = () => void flush();
    const hidden = () => document.visibilityState === 'hidden' && void flush();
    window.addEventListener('online', retry);
    window.addEventListener('pagehide', retry);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('online', retry);
      window.removeEventListener('pagehide', retry);
      document.removeEventListener('visibilitychange', hidden);
      void flush();
    };
  }, [flush]);

  return { state, restored, edit, flush, discard, hasUnsaved: () => unsaved.current !== null };
}

export type DraftKeeping = ReturnType<typeof useDraftKeeping>;
