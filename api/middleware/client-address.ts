import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's address, for per-address limits. Served requests carry the socket in the
 * node-server environment (api/server.ts passes it on); in-process callers (the build, tests
 * calling app.request) have none and share one key.
 */
export function clientAddress(c: Context): string {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return 'in-process';
  return getConnInfo(c).remote.address ?? 'unknown';
}
