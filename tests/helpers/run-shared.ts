import { startAuthEmulator } from '../../scripts/lib/auth-emulator.ts';

// What one test run starts once and every project shares: the Auth emulator, the PostgreSQL cluster,
// the template databases and the site builds. Vitest runs every project's global setup in its main
// process, one after another before the first test, and every teardown after the last one, so a
// registry on globalThis (each project loads this module afresh) sees them all: the first setup
// that asks for a thing starts it, later ones get the same, and the last teardown stops it.

export interface Started<T> {
  value: T;
  stop: () => Promise<void>;
}

interface Entry {
  started: Promise<Started<unknown>>;
  users: number;
}

const registry: Map<string, Entry> = ((
  globalThis as { __nestlingRunShared?: Map<string, Entry> }
).__nestlingRunShared ??= new Map());

/**
 * The run's one `key`, started by `start` if no setup has started it yet. Call `release` in the
 * setup's teardown; the last release stops it. A start that failed is forgotten, so it is not
 * reused.
 */
export async function acquire<T>(
  key: string,
  start: () => Promise<Started<T>>,
): Promise<{ value: T; release: () => Promise<void> }> {
  let entry = registry.get(key);
  if (!entry) {
    entry = { started: start(), users: 0 };
    registry.set(key, entry);
  }
  entry.users += 1;
  const current = entry;
  let started: Started<unknown>;
  try {
    started = await current.started;
  } catch (error) {
    if (registry.get(key) === current) registry.delete(key);
    throw error;
  }
  let released = false;
  return {
    // Each key is started by one function, so what it gave is of its type.
    value: started.value as T,
    release: async () => {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users > 0) return;
      registry.delete(key);
      await started.stop();
    },
  };
}

/** The run's one Auth emulator (its host:port), for every project that signs anyone in. */
export function sharedAuthEmulator() {
  return acquire('auth-emulator', async () => {
    const emulator = await startAuthEmulator();
    return { value: emulator.host, stop: emulator.stop };
  });
}
