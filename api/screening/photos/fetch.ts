// Listing photos are fetched from the marketplace's own hosts and nowhere else (docs/product.md,
// "Listing screening"). An address in a listing is someone else's text: it may name another host,
// this machine, a private address or a file, and a host may redirect, send gigabytes or drip a byte
// a minute. Every hop is checked against the list, the body is counted as it streams in, and one
// clock covers the whole fetch. Whatever happens, the answer is a result with plain words, never a
// throw.
import net from 'node:net';

/** The largest photo fetched: a 48-megapixel phone JPEG is 10–15 MB. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** The whole fetch, redirects and a slow body included. */
export const PHOTO_FETCH_TIMEOUT_MS = 10_000;
/** Redirects followed before giving up (a CDN's one or two fit). */
export const PHOTO_MAX_REDIRECTS = 3;

export const NOT_AN_ADDRESS = "The photo's address is not a web address.";
export const NOT_HTTP = "The photo's address is not an http or https address.";
export const HAS_CREDENTIALS =
  "The photo's address carries a user name or password, which Nestling does not send.";
export const HOST_NOT_ALLOWED = "The photo's host is not one Nestling fetches from.";
export const REDIRECT_NOT_ALLOWED = "The photo's host sent Nestling on to a host it does not fetch from.";
export const REDIRECT_BROKEN = "The photo's host sent Nestling on without saying where.";
export const TOO_SLOW = "The photo's host took too long to answer.";
export const UNREACHABLE = "The photo's host could not be reached.";
export const CUT_OFF = "The photo's download was cut off before it ended.";
export const EMPTY = "The photo's host sent an empty file.";

export function tooManyRedirects(max: number): string {
  return `The photo's host redirected more than ${max} time${max === 1 ? '' : 's'}.`;
}

export function tooLarge(maxBytes: number): string {
  const mb = maxBytes / (1024 * 1024);
  return `The photo is larger than ${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB.`;
}

export function hostError(status: number): string {
  return `The photo's host answered with an error (HTTP ${status}).`;
}

export interface FetchPhotoOptions {
  /**
   * Host names fetched from, compared without case. An entry `*.example.com` takes any name ending
   * in `.example.com` (not `example.com` itself). IP addresses and localhost are fetched only when
   * listed exactly as they appear in the address.
   */
  allowedHosts: string[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** The fetch used; the platform's by default. */
  fetchImpl?: typeof fetch;
}

export type FetchedPhoto =
  { ok: true; bytes: Buffer; contentType: string | null } | { ok: false; reason: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Fetches one photo from an allowed host; never throws. */
export async function fetchPhoto(url: string, options: FetchPhotoOptions): Promise<FetchedPhoto> {
  try {
    return await fetchChecked(url, options);
  } catch {
    // Nothing above should throw; a surprise still answers in words.
    return { ok: false, reason: UNREACHABLE };
  }
}

async function fetchChecked(url: string, options: FetchPhotoOptions): Promise<FetchedPhoto> {
  const maxBytes = options.maxBytes ?? PHOTO_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? PHOTO_MAX_REDIRECTS;
  const fetchImpl = options.fetchImpl ?? fetch;
  const allowed = options.allowedHosts.map(normalHost);
  const signal = AbortSignal.timeout(options.timeoutMs ?? PHOTO_FETCH_TIMEOUT_MS);
  const refuse = (reason: string): FetchedPhoto => ({ ok: false, reason });

  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return refuse(NOT_AN_ADDRESS);
  }
  for (let redirects = 0; ; redirects++) {
    const refusal = checkAddress(address, allowed);
    if (refusal)
      return refuse(redirects > 0 && refusal === HOST_NOT_ALLOWED ? REDIRECT_NOT_ALLOWED : refusal);
    let response: Response;
    try {
      response = await fetchImpl(address, {
        redirect: 'manual',
        signal,
        headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8' },
      });
    } catch {
      return refuse(signal.aborted ? TOO_SLOW : UNREACHABLE);
    }
    if (REDIRECTS.has(response.status)) {
      discard(response);
      const location = response.headers.get('location');
      if (!location) return refuse(REDIRECT_BROKEN);
      if (redirects >= maxRedirects) return refuse(tooManyRedirects(maxRedirects));
      try {
        address = new URL(location, address);
      } catch {
        return refuse(REDIRECT_BROKEN);
      }
      continue;
    }
    if (!response.ok) {
      discard(response);
      return refuse(hostError(response.status));
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      discard(response);
      return refuse(tooLarge(maxBytes));
    }
    const body = await readAtMost(response, maxBytes, signal);
    if (!body.ok) return body;
    if (body.bytes.byteLength === 0) return refuse(EMPTY);
    return { ok: true, bytes: body.bytes, contentType: response.headers.get('content-type') };
  }
}

/** Why an address is not fetched, or null when it may be. */
function checkAddress(address: URL, allowed: string[]): string | null {
  if (address.protocol !== 'https:' && address.protocol !== 'http:') return NOT_HTTP;
  if (address.username || address.password) return HAS_CREDENTIALS;
  const host = normalHost(address.hostname);
  if (!host) return NOT_AN_ADDRESS;
  if (allowed.includes(host)) return null;
  // A number or localhost is this machine or a network's inside: only ever when listed exactly.
  if (isIpLiteral(host) || host === 'localhost' || host.endsWith('.localhost')) return HOST_NOT_ALLOWED;
  const wildcard = allowed.some((entry) => entry.startsWith('*.') && host.endsWith(entry.slice(1)));
  return wildcard ? null : HOST_NOT_ALLOWED;
}

/** Lower case, without IPv6 brackets or a final dot ("Photos.Example.com." is "photos.example.com"). */
function normalHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function isIpLiteral(host: string): boolean {
  // URL turns every IPv4 spelling (octal, hex, one number) into dotted decimal before this.
  return net.isIP(host) !== 0;
}

/** Reads the body, giving up past maxBytes or when the clock runs out. */
async function readAtMost(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; reason: string }> {
  if (!response.body) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => undefined);
        return { ok: false, reason: tooLarge(maxBytes) };
      }
      chunks.push(value);
    }
  } catch {
    void reader.cancel().catch(() => undefined);
    return { ok: false, reason: signal.aborted ? TOO_SLOW : CUT_OFF };
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}

/**
 * Lets go of a body not read, so its connection is freed. Not waited for: a cancel can wait on a
 * host that keeps the body open, and the answer does not depend on it.
 */
function discard(response: Response): void {
  void response.body?.cancel().catch(() => undefined);
}
