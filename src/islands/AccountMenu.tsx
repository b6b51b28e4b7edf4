// The signed-in visitor's account menu: name, email, role and user-type badges (docs/product.md), their
// account page, the admin page for admins, the studio for authors, editors and admins, the
// moderation console for moderators and admins, and Sign Out (Exit Demo Mode in demo mode). Loaded
// by AuthControls only once someone is signed in.
import { useStore } from '@nanostores/react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { canModerate, isAdmin } from '../../api/contract.ts';
import { canWritePosts } from '../../api/contract/studio.ts';
import { $auth, accountEmail, accountName } from '../stores/auth.ts';
import { Avatar } from './comments/Avatar.tsx';
import { RoleBadge, UserTypeBadge } from './comments/badges.tsx';

const item =
  'text-ink data-[highlighted]:bg-sand block cursor-pointer rounded-md px-2 py-2 text-sm outline-none';

interface Props {
  onLeave: () => void;
}

export default function AccountMenu({ onLeave }: Props) {
  const auth = useStore($auth);
  const name = accountName(auth);
  const email = accountEmail(auth);
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
                <UserTypeBadge key={type} type={type} />
              ))}
            </div>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="bg-sand my-1 h-px" />
          <DropdownMenu.Item asChild className={item}>
            <a href="/account">Your account</a>
          </DropdownMenu.Item>
          {isAdmin(auth.profile?.role) && !auth.demoMode && (
            <DropdownMenu.Item asChild className={item}>
              <a href="/admin">Admin</a>
            </DropdownMenu.Item>
          )}
          {canWritePosts(auth.profile?.role) && !auth.demoMode && (
            <DropdownMenu.Item asChild className={item}>
              <a href="/studio">Studio</a>
            </DropdownMenu.Item>
          )}
          {canModerate(auth.profile?.role) && !auth.demoMode && (
            <DropdownMenu.Item asChild className={item}>
              <a href="/moderation">Moderation</a>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item onSelect={onLeave} className={item}>
            {auth.demoMode ? 'Exit Demo Mode' : 'Sign Out'}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
