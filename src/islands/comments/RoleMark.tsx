// The mark beside an author's name in demo mode (docs/product.md): the role the name implies.
import { ShieldIcon, StarBadgeIcon } from '../../components/icons.tsx';
import { demoRole } from '../../lib/demo-comments.ts';

/** A shield for an admin, a star for a moderator, nothing for anyone else. */
export function RoleMark({ name }: { name: string }) {
  const role = demoRole(name);
  if (role === 'admin') {
    return (
      <span className="inline-flex items-center gap-0.5 text-xs font-medium text-purple-800" title="Admin">
        <ShieldIcon className="h-4 w-4" />
        <span className="sr-only">Admin</span>
      </span>
    );
  }
  if (role === 'moderator') {
    return (
      <span className="inline-flex items-center gap-0.5 text-xs font-medium text-blue-800" title="Moderator">
        <StarBadgeIcon className="h-4 w-4" />
        <span className="sr-only">Moderator</span>
      </span>
    );
  }
  return null;
}
