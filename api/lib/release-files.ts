// Files a release keeps at its root for this server and the publisher, not for readers: the server
// answers them with a 404, and the build does not compress them (at 5,000 posts the render keys are
// 618 KB, and compressing them took about 0.3 s of CPU at every publish).

/** The sha256 of every inline script in the release's pages, for the CSP (security-headers.ts). */
export const CSP_HASHES_FILE = '_csp-hashes.json';

/** The render key of each page that shows posts (docs/decisions/019), for the next publish. */
export const RENDER_KEYS_FILE = '_render-keys.json';

export const RELEASE_BOOKKEEPING: readonly string[] = [CSP_HASHES_FILE, RENDER_KEYS_FILE];
