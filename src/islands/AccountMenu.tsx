// The signed-in visitor's account menu: name, email, role and user-type badges (spec §6), and
// Sign Out (Exit Demo Mode in demo mode). Loaded by AuthControls only once someone is signed in.
import { useStore } from '@nanostores/react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { $auth } from '../stores/auth.ts';
import { Avatar } from './comments/Avatar.tsx';
import { ShieldIcon } from './comments/icons.tsx';

const badge = 'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold';

function RoleBadge({ role }: { role: string | undefined }) {
  if (role === 'admin') {
    return (
      <span className={`${badge} bg-purple-100 text-purple-800`}>
        <ShieldIcon className="h-3.5 w-3.5" />
        Admin
      </span>
    );
  }
  if (role === 'moderator') return <span className={`${badge} bg-blue-100 text-blue-800`}>Moderator</span>;
  return <span className={`${badge} bg-gray-100 text-gray-700`}>Member</span>;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface Props {
  name: string;
  email: string;
  onLeave: () => void;
}

export default function AccountMenu({ name, email, onLeave }: Props) {
  const auth = useStore($auth);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        data-testid="account-menu-button"
        aria-label={`Account menu for ${name}`}
        className="text-ink hover:bg-sand flex h-10 max-w-48 items-center gap-2 rounded-lg px-2 text-sm font-medium"
      >
        <Avatar name={name} photoUrl={auth.profile?.photo_url ?? auth.user?.photoURL} size="sm" />
        <span className="hidden truncate sm:inline">{name}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="border-sand z-50 w-64 rounded-xl border bg-white p-2 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5">
            <p className="text-ink truncate text-sm font-semibold">{name}</p>
            {email && <p className="text-muted truncate text-xs">{email}</p>}
            <div className="mt-2 flex flex-wrap gap-1.5">
              <RoleBadge role={auth.profile?.role} />
              {(auth.profile?.user_type ?? []).map((type) => (
                <span key={type} className={`${badge} bg-brand-light text-brand-dark`}>
                  {capitalise(type)}
                </span>
              ))}
            </div>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="bg-sand my-1 h-px" />
          <DropdownMenu.Item
            onSelect={onLeave}
            className="text-ink data-[highlighted]:bg-sand cursor-pointer rounded-md px-2 py-2 text-sm outline-none"
          >
            {auth.demoMode ? 'Exit Demo Mode' : 'Sign Out'}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
