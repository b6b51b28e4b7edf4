import type { StoreValue } from 'nanostores';
import { type $auth, accountEmail, accountName, exitDemoMode } from '../../stores/auth.ts';
import { Avatar } from './Avatar.tsx';
import { RoleBadge, UserTypeBadge } from './badges.tsx';

/** The sidebar card for a signed-in reader: who they are and their role (docs/product.md). */
export function ProfileCard({ auth }: { auth: StoreValue<typeof $auth> }) {
  const { user, profile, demoMode } = auth;
  const name = accountName(auth);
  const email = accountEmail(auth);
  const userTypes = profile?.user_type ?? [];
  return (
    <div className="border-sand rounded-2xl border bg-white p-5 shadow-sm">
      <div className="flex items-center gap-3">
        <Avatar name={name} photoUrl={profile?.photo_url ?? user?.photoURL} size="lg" />
        <div className="min-w-0">
          <h3 className="text-ink truncate text-lg font-semibold">{name}</h3>
          {email && <p className="text-muted truncate text-sm">{email}</p>}
        </div>
      </div>
      <ul aria-label="Roles" className="mt-4 flex flex-wrap gap-2">
        <li>
          <RoleBadge role={profile?.role} />
        </li>
        {userTypes.map((type) => (
          <li key={type}>
            <UserTypeBadge type={type} />
          </li>
        ))}
      </ul>
      {demoMode && (
        <div className="border-sand mt-4 border-t pt-4">
          <p className="text-muted text-sm">
            You are in demo mode: comments you post here are simulated and not saved.
          </p>
          <button
            type="button"
            onClick={() => exitDemoMode()}
            className="border-sand text-ink hover:bg-sand mt-3 w-full rounded-lg border bg-white px-4 py-2 text-sm font-semibold"
          >
            Exit Demo Mode
          </button>
        </div>
      )}
    </div>
  );
}
