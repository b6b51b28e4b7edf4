// What the moderation console says: the decisions' confirmations, and its 403.
import { StaffOnly } from '../RoleGate.tsx';

/** The confirmations of a report's three decisions. */
export const RESOLVE_TEXT = {
  remove: {
    title: 'Remove this comment?',
    description:
      'The thread shows “This comment was removed by a moderator.” in its place; its replies stay. Its author sees your reason. Every open report of it is resolved.',
    confirm: 'Remove comment',
  },
  restore: {
    title: 'Restore this comment?',
    description: 'It is shown again and counted, and every open report of it is resolved.',
    confirm: 'Restore comment',
  },
  dismiss: {
    title: 'Dismiss these reports?',
    description:
      'The reports are closed as not breaking the rules; a comment hidden for review is shown again.',
    confirm: 'Dismiss reports',
  },
} as const;

/** The console's 403, for a signed-in parent who is neither a moderator nor an admin. */
export function ModeratorsOnly({ email }: { email: string }) {
  return (
    <StaffOnly staff="moderators" email={email}>
      <p className="mt-2">
        To report a comment, use the Report button under it. See{' '}
        <a href="/safety#report" className="font-semibold underline underline-offset-4">
          how reports work
        </a>
        .
      </p>
    </StaffOnly>
  );
}
