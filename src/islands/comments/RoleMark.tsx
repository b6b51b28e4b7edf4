// The mark beside an author's name in demo mode (docs/product.md): the role the name implies.
import { ShieldIcon, StarBadgeIcon } from '../../components/icons.tsx';
import { demoRole } from '../../lib/demo-comments.ts';

const MARKS = {
  admin: { Icon: ShieldIcon, label: 'Admin', color: 'text-purple-800' },
  moderator: { Icon: StarBadgeIcon, label: 'Moderator', color: 'text-blue-800' },
};

/** A shield for an admin, a star for a moderator, nothing for anyone else. */
export function RoleMark({ name }: { name: string }) {
  const role = demoRole(name);
  if (!role) return null;
  const { Icon, label, color } = MARKS[role];
  return (
    <span className={`inline-flex items-center gap-0.5 text-xs font-medium ${color}`} title={label}>
      <Icon className="h-4 w-4" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
