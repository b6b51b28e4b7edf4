// The profile's role and user-type badges (docs/product.md), shared by the comment sidebar card and the
// navigation's account menu.
import { ShieldIcon } from '../../components/icons.tsx';

const badge = 'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold';

/** admin: purple with a shield; moderator: blue; anything else: a plain grey member. */
export function RoleBadge({ role }: { role: string | undefined }) {
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

/** "buyer" → "Buyer", "seller" → "Seller". */
export function UserTypeBadge({ type }: { type: string }) {
  return (
    <span className={`${badge} bg-brand-light text-brand-dark`}>
      {type.charAt(0).toUpperCase() + type.slice(1)}
    </span>
  );
}
