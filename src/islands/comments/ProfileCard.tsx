import type { StoreValue } from 'nanostores';
import { type $auth, exitDemoMode } from '../../stores/auth.ts';
import { Avatar } from './Avatar.tsx';
import { ShieldIcon } from './icons.tsx';

function RoleBadge({ role }: { role: string | undefined }) {
  const base = 'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold';
  if (role === 'admin') {
    return (
      <span className={`${base} bg-purple-100 text-purple-800`}>
        <ShieldIcon className="h-3.5 w-3.5" />
        Admin
      </span>
    );
  }
  if (role === 'moderator') return <span className={`${base} bg-blue-100 text-blue-800`}>Moderator</span>;
  return <span className={`${base} bg-gray-100 text-gray-700`}>Member</span>;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The sidebar card for a signed-in reader: who they are and their role (spec §6). */
export function ProfileCard({ auth }: { auth: StoreValue<typeof $auth> }) {
  const { user, profile, demoMode } = auth;
  const name = profile?.display_name || user?.displayName || 'User';
  const email = profile?.email || user?.email || '';
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
            <span className="bg-brand-light text-brand-dark inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold">
              {capitalise(type)}
            </span>
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
