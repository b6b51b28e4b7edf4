// The studio's preview (/studio/preview/?post=<id>; docs/product.md, "The studio"): the post's
// latest text in the live site's real post page, from GET /api/studio/posts/:postId/preview,
// shown in a sandboxed frame that runs no script (so nothing on the page acts on a draft).

import { useEffect, useState } from 'react';
import { canWritePosts } from '../../../api/contract/studio.ts';
import { api, errorMessage, withToken } from '../../lib/api.ts';
import { accountEmail, getIdToken } from '../../stores/auth.ts';
import { type Access, RoleGate, useGatedAccount } from '../RoleGate.tsx';
import { WritersOnly } from './WritersOnly.tsx';

const access: Access = { role: canWritePosts };

/** The widths the frame can take: a phone's, or the whole window. */
const WIDTHS = { phone: '390px', desktop: '100%' } as const;
type Width = keyof typeof WIDTHS;

export default function PreviewFrame() {
  const { auth, uid } = useGatedAccount(access);
  return (
    <RoleGate
      auth={auth}
      access={access}
      signIn="Sign in with a writer’s account to preview posts."
      forbidden={
        <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
          <WritersOnly email={accountEmail(auth)} />
        </div>
      }
    >
      {uid && <Preview key={uid} />}
    </RoleGate>
  );
}

type Loaded = { state: 'shown'; html: string } | { state: 'failed'; message: string };

/** The page's HTML from the API, or why there is none. */
async function loadPreview(postId: string): Promise<Loaded> {
  try {
    const res = await api.studio.posts[':postId'].preview.$get(
      { param: { postId } },
      withToken(await getIdToken()),
    );
    if (res.ok) return { state: 'shown', html: await res.text() };
    let message = `The preview could not be loaded (${res.status}).`;
    try {
      const body: unknown = await res.json();
      if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') {
        message = body.error;
      }
    } catch {
      // Not JSON: the status says enough.
    }
    return { state: 'failed', message };
  } catch (error) {
    return { state: 'failed', message: `The preview could not be loaded: ${errorMessage(error)}` };
  }
}

/**
 * Links in the preview open in a new tab: the frame cannot show another page of the site (the
 * site refuses to be framed), and the studio stays where it is.
 */
function withLinksInNewTabs(html: string): string {
  return html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}<base target="_blank">`);
}

function Preview() {
  const [postId] = useState(() => {
    const param = new URLSearchParams(window.location.search).get('post');
    return param && /^\d+$/.test(param) ? param : null;
  });
  // Each Refresh asks again; the last answer stays on screen until the next one arrives.
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<(Loaded & { attempt: number }) | null>(null);
  const [width, setWidth] = useState<Width>('desktop');

  useEffect(() => {
    if (postId === null) return;
    let current = true;
    void loadPreview(postId).then((answer) => {
      if (current) setLoaded({ ...answer, attempt });
    });
    return () => {
      current = false;
    };
  }, [postId, attempt]);
  const loading = loaded?.attempt !== attempt;

  if (postId === null) {
    return (
      <p role="alert" className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        This address names no post to preview.{' '}
        <a href="/studio" className="text-brand-dark font-semibold underline">
          Back to all posts
        </a>
      </p>
    );
  }

  return (
    <>
      <div className="border-sand flex flex-wrap items-center gap-x-4 gap-y-2 border-b bg-amber-50 px-4 py-2 text-sm text-amber-950 sm:px-6">
        <p className="font-semibold">Preview: readers don’t see this until it’s published</p>
        <a href={`/studio/edit/?post=${postId}`} className="text-brand-dark font-semibold underline">
          Back to the editor
        </a>
        <button
          type="button"
          onClick={() => setAttempt((n) => n + 1)}
          aria-busy={loading}
          className="border-brand text-brand-dark rounded-full border bg-white px-3 py-1 font-semibold"
        >
          Refresh
        </button>
        <fieldset className="ml-auto flex items-center gap-3">
          <legend className="sr-only">Width</legend>
          {(['phone', 'desktop'] as const).map((each) => (
            <label key={each} className="flex items-center gap-1">
              <input
                type="radio"
                name="preview-width"
                value={each}
                checked={width === each}
                onChange={() => setWidth(each)}
              />
              {each === 'phone' ? 'Phone' : 'Desktop'}
            </label>
          ))}
        </fieldset>
      </div>
      {loaded === null && (
        <p className="text-muted px-4 py-10 sm:px-6" aria-busy="true">
          Loading the preview…
        </p>
      )}
      {loaded?.state === 'failed' && (
        <p role="alert" className="m-4 rounded-xl bg-red-50 p-4 text-red-900 sm:mx-6">
          {loaded.message}
        </p>
      )}
      {loaded?.state === 'shown' && (
        <div className="bg-sand/50 flex justify-center">
          <iframe
            title="The post as readers will see it"
            srcDoc={withLinksInNewTabs(loaded.html)}
            // No allow-scripts: the page's islands never run on a draft. Links open in a new tab.
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            className="block h-[calc(100dvh-7.5rem)] border-0 bg-white"
            style={{ width: WIDTHS[width] }}
          />
        </div>
      )}
    </>
  );
}
