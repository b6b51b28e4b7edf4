import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createFirebaseVerifier } from '../../api/auth/verifier.ts';
import { createEmulatorUser, EMULATOR_PROJECT_ID } from '../../scripts/lib/auth-emulator.ts';
import { newParent } from '../helpers/parents.ts';
import { createTestApp } from '../helpers/test-db.ts';

type App = Awaited<ReturnType<typeof createTestApp>>['app'];
let app: App;
let token: string;
let moderatorToken: string;

beforeAll(async () => {
  const host = inject('authEmulatorHost');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  const created = await createTestApp({ verifyToken: createFirebaseVerifier(EMULATOR_PROJECT_ID) });
  app = created.app;
  token = (await createEmulatorUser(host)).idToken;
  moderatorToken = (await newParent(app, created.db, 'Fuzz Moderator', 'moderator')).token;
});

const ROUTES = [
  ['GET', '/api/items'],
  ['GET', '/api/items/featured'],
  ['GET', '/api/items/categories'],
  ['GET', '/api/community/feed'],
  ['GET', '/api/community/count'],
  ['GET', '/api/blog/posts'],
  ['GET', '/api/blog/categories'],
  ['GET', '/api/blog/posts/{slug}'],
  ['POST', '/api/blog/posts/{slug}/view'],
  ['GET', '/api/blog/posts/{slug}/like-status'],
  ['POST', '/api/blog/posts/{slug}/like'],
  ['GET', '/api/blog/posts/{id}/comments'],
  ['POST', '/api/blog/posts/{id}/comments'],
  ['POST', '/api/blog/comments/{id}/like'],
  ['PATCH', '/api/blog/comments/{id}'],
  ['DELETE', '/api/blog/comments/{id}'],
  ['POST', '/api/blog/comments/{id}/reports'],
  ['GET', '/api/moderation/reports'],
  ['POST', '/api/moderation/reports/{id}/resolve'],
  ['GET', '/api/moderation/comments'],
  ['POST', '/api/moderation/comments/{id}/review'],
  ['GET', '/api/moderation/suspensions'],
  ['POST', '/api/moderation/users/{id}/suspend'],
  ['POST', '/api/moderation/users/{id}/lift'],
  ['GET', '/api/moderation/escalations'],
  ['GET', '/api/moderation/audit'],
  ['GET', '/api/profile'],
  ['POST', '/api/account/deletion-requests'],
  ['GET', '/api/account/export'],
  ['DELETE', '/api/account'],
  ['GET', '/api/notifications/threads/{id}'],
  ['PUT', '/api/notifications/threads/{id}'],
  ['POST', '/api/notifications/confirm'],
  ['POST', '/api/notifications/unsubscribe'],
  ['POST', '/api/notifications/one-click'],
  ['GET', '/api/admin/publish'],
  ['POST', '/api/admin/publish'],
  ['GET', '/api/admin/deletion-requests'],
  ['POST', '/api/admin/deletion-requests/{id}/erase'],
  ['POST', '/api/admin/deletion-requests/{id}/close'],
  ['GET', '/api/admin/outbox'],
  ['GET', '/api/favourites'],
  ['GET', '/api/favourites/count'],
  ['PUT', '/api/favourites/{id}'],
  ['DELETE', '/api/favourites/{id}'],
  ['GET', '/api/favourites/alerts'],
  ['PUT', '/api/favourites/alerts'],
  ['POST', '/api/favourites/alerts/one-click'],
  ['GET', '/api/saved-searches'],
  ['POST', '/api/saved-searches'],
  ['PATCH', '/api/saved-searches/{id}'],
  ['DELETE', '/api/saved-searches/{id}'],
  ['POST', '/api/saved-searches/one-click'],
  ['GET', '/api/stats'],
] as const;

// Full unicode with NUL and lone surrogates: text neither database may be handed (docs/product.md).
const anyText = fc.string({ unit: 'binary' });

const nasty = fc.oneof(
  fc.string(),
  anyText,
  fc.constantFrom(
    "' or 1=1 --",
    '1; drop table blog_posts',
    '../../etc/passwd',
    '%00',
    '%ff%fe',
    '<script>alert(1)</script>',
    '9'.repeat(40),
    '-1',
    '0',
    '1.5',
    'NaN',
    '__proto__',
    'constructor',
    '🧸',
    '%',
  ),
);

const segment = nasty.map((s) => encodeURIComponent(s).slice(0, 300) || 'x');

const body = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string(),
  fc.dictionary(anyText, anyText, { maxKeys: 3 }),
  fc.record({
    content: fc.oneof(fc.string(), anyText, fc.integer(), fc.constant(null)),
    parentCommentId: fc.anything(),
  }),
  fc.record({ email: fc.oneof(fc.string(), anyText), confirmed: fc.anything(), reason: fc.anything() }),
  fc.record({
    category: fc.oneof(fc.string(), fc.constant('child_safety')),
    note: fc.oneof(anyText, fc.anything()),
  }),
  fc.record({ action: fc.string(), reason: fc.oneof(anyText, fc.anything()), days: fc.anything() }),
  // A saved search (docs/product.md, "Favourites and alerts").
  fc.record({
    frequency: fc.oneof(fc.string(), fc.constantFrom('instant', 'daily')),
    category: fc.oneof(anyText, fc.constantFrom('toys', null)),
    maxPrice: fc.oneof(fc.double(), fc.anything()),
    words: fc.oneof(anyText, fc.anything()),
    paused: fc.anything(),
  }),
  fc.record({
    token: fc.oneof(fc.string(), anyText, fc.stringMatching(/^[0-9a-f]{64}$/)),
    scope: fc.oneof(fc.string(), fc.constantFrom('thread', 'all')),
    subscribed: fc.anything(),
    confirmEmail: fc.anything(),
  }),
);

async function expectJsonAnswer(res: Response) {
  expect(res.status, `status ${res.status}`).toBeLessThan(500);
  // A deletion's success (a comment the fuzzing parent posted) has no body at all.
  if (res.status === 204) return expect(await res.text()).toBe('');
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const parsed: unknown = await res.json();
  if (res.status >= 400) {
    expect(parsed).toMatchObject({ error: expect.any(String) });
    expect(JSON.stringify(parsed)).not.toMatch(/at .*\.ts:\d+/); // no stack traces
  }
}

const authorized = (bearer: string): RequestInit => ({ headers: { Authorization: `Bearer ${bearer}` } });

describe('fuzzing every endpoint', () => {
  it('never answers 5xx, always answers JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        segment,
        fc.dictionary(
          fc.constantFrom('limit', 'page', 'category', 'status', 'before', 'token', 'scope', 'x'),
          nasty,
          {
            maxKeys: 3,
          },
        ),
        body,
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/json; charset=utf-8',
          '',
          'multipart/form-data',
        ),
        fc.oneof(
          fc.constant(null),
          fc.constant(`Bearer ${'x'}`),
          fc.constant('valid'),
          fc.constant('moderator'),
          nasty.map((s) => `Bearer ${s}`),
        ),
        async ([method, template], seg, query, payload, contentType, auth) => {
          const path = template.replace('{slug}', seg).replace('{id}', seg);
          const search = new URLSearchParams(query as Record<string, string>).toString();
          const headers: Record<string, string> = {};
          if (contentType) headers['Content-Type'] = contentType;
          if (auth === 'valid') headers.Authorization = `Bearer ${token}`;
          else if (auth === 'moderator') headers.Authorization = `Bearer ${moderatorToken}`;
          else if (auth && /^[\t\x20-\x7e]*$/.test(auth)) headers.Authorization = auth;
          const res = await app.request(`${path}${search ? `?${search}` : ''}`, {
            method,
            headers,
            body:
              method !== 'GET' && payload !== undefined
                ? typeof payload === 'string'
                  ? payload
                  : JSON.stringify(payload)
                : undefined,
          });
          await expectJsonAnswer(res);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses text the databases cannot store with a 400 naming the field', async () => {
    const refused = async (path: string, init: RequestInit | undefined, field: RegExp) => {
      const res = await app.request(path, init);
      expect(res.status, path).toBe(400);
      const answer: unknown = await res.json();
      expect(answer).toMatchObject({ error: expect.stringMatching(field) });
    };
    const json = (body: unknown, method = 'POST'): RequestInit => ({
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    await refused('/api/blog/posts/welcome-to-nestling%00.json', undefined, /^slug: /);
    await refused('/api/blog/posts/welcome-to-nestling%00/view', { method: 'POST' }, /^slug: /);
    await refused('/api/moderation/reports?status=open%00', authorized(moderatorToken), /^status: /);
    await refused('/api/account/deletion-requests', json({ email: 'a\u0000@b.co' }), /^email: /);
    await refused('/api/blog/posts/1/comments', json({ content: 'hello \ud800 there' }), /^content: /);
    await refused('/api/notifications/unsubscribe', json({ token: '\udc00', scope: 'all' }), /^token: /);
  });

  it('rejects bodies over 16 KB with 413 and non-JSON bodies with 415', async () => {
    const big = await app.request('/api/account/deletion-requests', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(17 * 1024) },
      body: JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(17 * 1024) }),
    });
    expect(big.status).toBe(413);
    const form = await app.request('/api/account/deletion-requests', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a@b.co',
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({ error: 'Content-Type must be application/json' });
  });

  it('leaves the data unchanged after SQL injection attempts', async () => {
    const before = await (await app.request('/api/blog/posts')).text();
    for (const attempt of [
      "x' OR '1'='1",
      "x'; DELETE FROM blog_posts; --",
      '1 OR 1=1',
      '1); DROP TABLE comments; --',
    ]) {
      await app.request(`/api/blog/posts/${encodeURIComponent(attempt)}`);
      await app.request(`/api/blog/posts/${encodeURIComponent(attempt)}/comments`);
      await app.request(`/api/items/featured?limit=${encodeURIComponent(attempt)}`);
      await app.request(`/api/blog/posts/${encodeURIComponent(attempt)}/view`, { method: 'POST' });
    }
    expect(await (await app.request('/api/blog/posts')).text()).toBe(before);
  });
});
