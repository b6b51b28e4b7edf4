// The marketplace's side of the listing intake, for tests: the token the test servers take and a
// way to send listings through the real route (docs/product.md, "Listing screening").

/** LISTINGS_TOKEN of the end-to-end servers (tests/helpers/e2e-setup.ts). */
export const E2E_LISTINGS_TOKEN = 'e2e-listings-token-0123456789';

/** POSTs listings to a running server as the marketplace does, failing on anything but 202. */
export async function sendListings(baseURL: string, listings: unknown[], token = E2E_LISTINGS_TOKEN) {
  const res = await fetch(new URL('/api/listings', baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ listings }),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /api/listings: ${res.status} ${text}`);
  return JSON.parse(text) as { accepted: number; listings: { itemId: string; screening: string }[] };
}
