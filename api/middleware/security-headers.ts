import fs from 'node:fs';
import path from 'node:path';
import { createMiddleware } from 'hono/factory';

export interface CspOptions {
  /** Firebase Auth, when configured: its hosts are allowed for connections, frames and scripts. */
  firebase?: { authDomain: string; emulatorHost?: string } | null;
  /** The email-marketing provider's deletion form is configured (its script is allowed). */
  deletionForm?: boolean;
}

/** File written beside the built site listing the sha256 of every inline script it contains. */
export const CSP_HASHES_FILE = '_csp-hashes.json';

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

/** Security headers on every page and API answer. */
export function securityHeaders(siteDir: () => string, options: CspOptions) {
  // The policy depends only on the live build; rebuild it when the build changes, checking at most
  // once a second rather than on every request.
  let policy = '';
  let checkedAt = 0;
  const currentPolicy = () => {
    const now = Date.now();
    if (!policy || now - checkedAt > 1_000) {
      policy = contentSecurityPolicy(inlineScriptHashes(siteDir()), options);
      checkedAt = now;
    }
    return policy;
  };
  return createMiddleware(async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set('Content-Security-Policy', currentPolicy());
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
    const https = new URL(c.req.url).protocol === 'https:' || c.req.header('X-Forwarded-Proto') === 'https';
    if (https) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
}
