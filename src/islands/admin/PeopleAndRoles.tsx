// "People and roles" on /admin (docs/product.md, "Roles"): an admin finds someone by the email
// they signed in with, sees their name and role, and gives them another after a confirm step; below,
// everyone who writes, publishes, moderates or administers. Shown to admins only, like the
// deletion queue; the publishing panel above tells everyone else why the page is not for them.
import { useStore } from '@nanostores/react';
import { lazy, type SubmitEvent, Suspense, useEffect, useId, useState } from 'react';
import { isAdmin, type PersonWithRole, type Role, ROLE_LABELS, ROLES } from '../../../api/contract.ts';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api.ts';
import { changeRole, findPerson, staff } from '../../stores/admin.ts';
import { $auth, initAuth } from '../../stores/auth.ts';
import { toast } from '../../stores/toast.ts';
import { When } from '../moderation/parts.tsx';

// The dialog (and Radix with it) loads only when an admin changes a role.
const ActionDialog = lazy(() =>
  import('../dialogs/ActionDialog.tsx').then((m) => ({ default: m.ActionDialog })),
);

/** What each role may do, in the words the select's hint and the confirm step use. */
export const ROLE_POWERS: Record<Role, string> = {
  user: 'Comments, replies, likes and reports: what every parent can do.',
  author: 'Also writes posts in the studio and sends them for review; cannot publish.',
  editor: 'Also edits any post in the studio, publishes, schedules and withdraws posts, and uploads photos.',
  moderator: 'Also reviews reports and comments and suspends parents.',
  admin:
    'Everything: the studio and moderation, plus publishing the site, deletion requests, the mail outbox and people’s roles.',
};

/** "an Editor", "a Moderator". */
const withArticle = (role: Role) => `${/^[AEIOU]/.test(ROLE_LABELS[role]) ? 'an' : 'a'} ${ROLE_LABELS[role]}`;

const field = 'mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-ink';
const button =
  'bg-brand hover:bg-brand-dark rounded-full px-5 py-2 font-semibold text-white disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

function staffColumns(pick: (person: PersonWithRole) => void): Column<PersonWithRole>[] {
  return [
    { head: 'Name', cell: (person) => person.name, className: 'font-medium break-words' },
    { head: 'Email', cell: (person) => person.email, className: 'break-all' },
    { head: 'Role', cell: (person) => ROLE_LABELS[person.role] },
    { head: 'Changed', cell: (person) => <When iso={person.roleChangedAt} /> },
    {
      head: 'Actions',
      cell: (person) =>
        person.isYou ? (
          <span className="text-muted">You</span>
        ) : (
          <button
            type="button"
            onClick={() => pick(person)}
            aria-label={`Change the role of ${person.name}`}
            className="border-sand text-ink hover:bg-sand rounded-lg border bg-white px-3 py-1.5 text-sm font-semibold"
          >
            Change role
          </button>
        ),
    },
  ];
}

export default function PeopleAndRoles() {
  const auth = useStore($auth, { ssr: 'initial' });
  const uid =
    !auth.loading && !auth.demoMode && isAdmin(auth.profile?.role) ? (auth.user?.uid ?? null) : null;
  const list = useStore(staff.store(uid));
  const id = useId();
  const [email, setEmail] = useState('');
  const [finding, setFinding] = useState(false);
  const [findError, setFindError] = useState<string | null>(null);
  const [person, setPerson] = useState<PersonWithRole | null>(null);
  const [role, setRole] = useState<Role>('user');
  const [confirming, setConfirming] = useState(false);

  useEffect(() => initAuth(), []);
  if (!uid) return null;
  const admin = uid;

  function show(found: PersonWithRole) {
    setPerson(found);
    setRole(found.role);
    setFindError(null);
  }

  async function find(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (finding) return;
    const address = email.trim();
    setPerson(null);
    if (!address) {
      setFindError('Type the email address they signed in with.');
      return;
    }
    setFinding(true);
    setFindError(null);
    try {
      show(await findPerson(address));
    } catch (failure) {
      setFindError(errorMessage(failure));
    } finally {
      setFinding(false);
    }
  }

  /** From the list: the person shows in the card above, ready for a new role. */
  function pick(chosen: PersonWithRole) {
    setEmail(chosen.email);
    show(chosen);
    // After the card renders: focus goes to the role, where the admin continues.
    setTimeout(() => document.getElementById(`${id}-role`)?.focus(), 0);
  }

  function askToChange(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (person && role !== person.role) setConfirming(true);
  }

  async function confirm(who: PersonWithRole, to: Role) {
    const changed = await changeRole(admin, who.email, to);
    show(changed);
    toast({ title: 'Role changed', description: `${changed.name} is now ${ROLE_LABELS[changed.role]}.` });
  }

  const errorId = `${id}-find-error`;
  return (
    <section aria-labelledby="people-heading" className="space-y-4">
      <h2 id="people-heading" className="text-ink text-2xl font-bold">
        People and roles
      </h2>
      <p className="text-muted">
        Give someone a role by the email address they signed in with; they must have signed in once. Authors
        write posts, editors publish them, moderators look after the comments, and admins can do everything,
        including this.
      </p>
      <form noValidate onSubmit={(event) => void find(event)} className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor={`${id}-email`} className="text-ink font-semibold">
            Email address
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            spellCheck={false}
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={findError ? true : undefined}
            aria-describedby={findError ? errorId : undefined}
            className={field}
          />
        </div>
        <button type="submit" disabled={finding} className={button}>
          {finding ? 'Finding…' : 'Find'}
        </button>
      </form>
      {findError && (
        <p id={errorId} role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
          {findError}
        </p>
      )}
      {person && (
        <div
          role="group"
          aria-labelledby={`${id}-person`}
          className="border-sand rounded-2xl border bg-white p-5 shadow-sm"
        >
          <h3 id={`${id}-person`} tabIndex={-1} className="text-ink text-lg font-semibold break-words">
            {person.name}
          </h3>
          <p className="text-muted break-all">{person.email}</p>
          <p className="text-ink mt-2">
            Role: <strong>{ROLE_LABELS[person.role]}</strong>
          </p>
          {person.isYou ? (
            <p className="text-muted mt-2">This is you. Only another admin can change your role.</p>
          ) : (
            <form onSubmit={askToChange} className="mt-4 flex flex-wrap items-end gap-3">
              <div className="min-w-0 flex-1 basis-48">
                <label htmlFor={`${id}-role`} className="text-ink font-semibold">
                  New role for {person.name}
                </label>
                <select
                  id={`${id}-role`}
                  value={role}
                  onChange={(event) => setRole(ROLES.find((r) => r === event.target.value) ?? 'user')}
                  aria-describedby={`${id}-role-hint`}
                  className={field}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {ROLE_LABELS[r]}
                    </option>
                  ))}
                </select>
                <p id={`${id}-role-hint`} className="text-muted mt-1 text-sm">
                  {ROLE_POWERS[role]}
                </p>
              </div>
              {/* aria-disabled rather than disabled: the button keeps focus after the change it makes. */}
              <button type="submit" aria-disabled={role === person.role} className={button}>
                Change role
              </button>
            </form>
          )}
        </div>
      )}
      {!list.data ? (
        list.error ? (
          <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
            Failed to load who has a role.{' '}
            <button type="button" onClick={() => staff.refresh(admin)} className="font-semibold underline">
              Try again
            </button>
          </p>
        ) : (
          <p className="text-muted" aria-busy="true">
            Loading who has a role…
          </p>
        )
      ) : (
        <DataTable
          caption="Who writes, publishes, moderates and administers"
          columns={staffColumns(pick)}
          rows={list.data}
          rowKey={(row) => row.email}
          empty="Nobody has a role yet: everyone is a parent."
        />
      )}
      {confirming && person && (
        <Suspense fallback={null}>
          <ActionDialog
            title={`Make ${person.name} ${withArticle(role)}?`}
            description={`${person.name} (${person.email}) is ${withArticle(person.role)} now. As ${withArticle(role)}: ${ROLE_POWERS[role]} The change is kept in the audit log.`}
            confirmLabel="Change role"
            reason="none"
            onConfirm={() => confirm(person, role)}
            onClose={() => setConfirming(false)}
            fallbackFocus={() => document.getElementById(`${id}-person`)}
          />
        </Suspense>
      )}
    </section>
  );
}
