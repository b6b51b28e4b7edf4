import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { CSP_HASHES_FILE } from '../lib/release-files.ts';

export interface CspOptions {
  /** Firebase Auth, when configured: its hosts are allowed for connections, frames and scripts. */
  firebase?: { authDomain: string; emulatorHost?: string } | null;
  /** The email-marketing provider's deletion form is configured (its script is allowed). */
  deletionForm?: boolean;
}

const hashCache = new Map<string, string[]>();

/** The inline-script hashes of the build at siteDir (read once per build folder). */
export function inlineScriptHashes(siteDir: string): string[] {
  let real: string;
  try {
    real = fs.realpathSync(siteDir);
  } catch {
    return [];
  }
  let hashes = hashCache.get(real);
  if (!hashes) {
    try {
      hashes = JSON.parse(fs.readFileSync(path.join(real, CSP_HASHES_FILE), 'utf8')) as string[];
    } catch {
      hashes = [];
    }
    hashCache.set(real, hashes);
  }
  return hashes;
}

export function contentSecurityPolicy(hashes: string[], options: CspOptions): string {
  const connect = ["'self'"];
  const frame: string[] = [];
  // Pagefind's search runs as WebAssembly, compiled from our own origin.
  const script = ["'self'", "'wasm-unsafe-eval'", ...hashes.map((h) => `'${h}'`)];
  const img = ["'self'", 'data:'];
  if (options.firebase) {
    connect.push(
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://www.googleapis.com',
    );
    frame.push(`https://${options.firebase.authDomain}`);
    // The SDK's popup and redirect helpers load Google's API loader.
    script.push('https://apis.google.com');
    img.push('https://*.googleusercontent.com');
    if (options.firebase.emulatorHost) {
      connect.push(`http://${options.firebase.emulatorHost}`);
      frame.push(`http://${options.firebase.emulatorHost}`);
    }
  }
  if (options.deletionForm) {
    // The email-marketing provider's embedded deletion form, only when it is configured.
    script.push('https://assets.mailerlite.com', 'https://groot.mailerlite.com');
    connect.push('https://assets.mailerlite.com', 'https://connect.mailerlite.com');
    frame.push('https://assets.mailerlite.com');
    img.push('https://assets.mailerlite.com');
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    // React style props and Astro's small inlined stylesheets need inline styles.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img.join(' ')}`,
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frame.length ? frame.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const FIXED_HEADERS: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Opener-Policy', 'same-origin-allow-popups'],
];
const HSTS: [string, string] = ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'];

/** Whether the client reached us over HTTPS (directly or through a proxy that says so). */
export function isHttps(c: Context): boolean {
  return requestIsHttps(c.req.raw);
}

/** isHttps for a request not yet in the app (api/middleware/read-cache.ts). */
export function requestIsHttps(request: Request): boolean {
  return request.url.startsWith('https:') || request.headers.get('X-Forwarded-Proto') === 'https';
}

/**
 * An API answer is JSON: it runs no script, loads nothing and is never framed, so its policy
 * allows nothing (OWASP's REST advice) instead of repeating the pages' long one on every answer.
 */
const API_HEADERS: [string, string][] = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
];

/** The security headers of an API answer; over HTTPS, with HSTS. */
export function apiSecurityHeaders(https: boolean): readonly [string, string][] {
  return https ? API_HEADERS_HTTPS : API_HEADERS;
}
const API_HEADERS_HTTPS: [string, string][] = [...API_HEADERS, HSTS];

/** The part of the node-server environment this middleware uses. */
interface NodeResponse {
  setHeader: (name: string, value: string) => unknown;
}

/**
 * Security headers on every page, redirect and 404 screen of the site. Served requests get them on
 * the Node response before the app runs (Node merges them into whatever the app answers), which
 * leaves @hono/node-server's light Response light. In-process callers get them on the answer.
 * The policy allows the inline scripts of the build served for the request (`site`, set by
 * api/server.ts from the live release).
 */
export function securityHeaders(options: CspOptions) {
  // The policy depends only on the build served: made once per build folder.
  const byFolder = new Map<string, [string, string][]>();
  const current = (site: string | null) => {
    const key = site ?? '';
    let headers = byFolder.get(key);
    if (!headers) {
      const policy = contentSecurityPolicy(site ? inlineScriptHashes(site) : [], options);
      headers = [['Content-Security-Policy', policy], ...FIXED_HEADERS];
      if (byFolder.size >= 20) byFolder.clear();
      byFolder.set(key, headers);
    }
    return headers;
  };
  return createMiddleware<{
    Bindings: { outgoing?: NodeResponse } | undefined;
    Variables: { site: string | null };
  }>(async (c, next) => {
    const https = isHttps(c);
    const outgoing = c.env?.outgoing;
    const headers = current(c.get('site'));
    if (outgoing) {
      for (const [name, value] of headers) outgoing.setHeader(name, value);
      if (https) outgoing.setHeader(...HSTS);
      return next();
    }
    await next();
    for (const [name, value] of headers) c.res.headers.set(name, value);
    if (https) c.res.headers.set(...HSTS);
  });
}
