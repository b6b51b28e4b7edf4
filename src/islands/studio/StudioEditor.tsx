// The studio's editor (/studio/edit/: a new post; ?post=<id>: an existing one), docs/product.md
// "The studio". Authors, editors and admins; everyone else sees why.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { canWritePosts } from '../../../api/contract/studio.ts';
import { errorMessage } from '../../lib/api.ts';
import { accountEmail } from '../../stores/auth.ts';
import { studioPost } from '../../stores/studio.ts';
import { type Access, RoleGate, useGatedAccount } from '../RoleGate.tsx';
import { Editor } from './Editor.tsx';
import { WritersOnly } from './WritersOnly.tsx';

const access: Access = { role: canWritePosts };

export default function StudioEditor() {
  const { auth, uid } = useGatedAccount(access);
  return (
    <RoleGate
      auth={auth}
      access={access}
      signIn="Sign in with a writer’s account to write posts."
      forbidden={<WritersOnly email={accountEmail(auth)} />}
    >
      {uid && <OpenPost uid={uid} role={auth.profile?.role ?? null} />}
    </RoleGate>
  );
}

/** The post named in the address (read once: a new post's first save writes its id there). */
function OpenPost({ uid, role }: { uid: string; role: string | null }) {
  const [postId] = useState(() => {
    const param = new URLSearchParams(window.location.search).get('post');
    return param && /^\d+$/.test(param) ? param : null;
  });
  const { data, error } = useStore(studioPost.store(postId));
  if (postId === null) return <Editor uid={uid} role={role} post={null} />;
  if (error && !data)
    return (
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
        Could not open this post: {errorMessage(error)}{' '}
        <a href="/studio" className="font-semibold underline">
          Back to all posts
        </a>
      </p>
    );
  if (!data)
    return (
      <p className="text-muted" aria-busy="true">
        Opening the post…
      </p>
    );
  return <Editor key={postId} uid={uid} role={role} post={data} />;
}
