import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../types.ts';

/** An IPv4 peer on a dual-stack socket is "::ffff:a.b.c.d"; compared as a.b.c.d. */
const plain = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/**
 * The client's address, for per-address limits. Served requests carry the socket in the
 * node-server environment (api/server.ts passes it on); in-process callers (the build, tests
 * calling app.request) have none and share one key. Behind a trusted load balancer
 * (TRUSTED_PROXIES) it is the address the balancer saw, the last one it added to X-Forwarded-For;
 * from anyone else the header is ignored, so a client cannot choose its own key.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return 'in-process';
  const peer = plain(getConnInfo(c).remote.address ?? 'unknown');
  if (!c.get('deps').trustedProxies?.has(peer)) return peer;
  const forwarded = c.req.header('X-Forwarded-For')?.split(',').at(-1)?.trim();
  return forwarded && isIP(plain(forwarded)) !== 0 ? plain(forwarded) : peer;
}
