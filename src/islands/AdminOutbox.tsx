// The mail outbox (/admin/outbox; docs/product.md, "Email"): every email, newest first, whether it
// was sent (or, without a mail server, only kept here) or waits for a retry, with its text and headers.
// Admins only; everyone else sees why.
import { useStore } from '@nanostores/react';
import { isAdmin, type OutboxEmail } from '../../api/contract.ts';
import { ShowMore, useShowMore } from '../components/ShowMore.tsx';
import { loadMoreOutbox, outbox } from '../stores/admin.ts';
import { accountEmail } from '../stores/auth.ts';
import { When } from './moderation/parts.tsx';
import { type Access, RoleGate, StaffOnly, useGatedAccount } from './RoleGate.tsx';

const badge = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold';

function State({ email, kept }: { email: OutboxEmail; kept: boolean }) {
  if (email.state === 'waiting') {
    return (
      <span className={`${badge} bg-amber-100 text-amber-900`}>
        Waiting to be retried ({email.attempts} {email.attempts === 1 ? 'attempt' : 'attempts'})
      </span>
    );
  }
  return (
    <span className={`${badge} bg-green-100 text-green-900`}>{kept ? 'Kept here (not sent)' : 'Sent'}</span>
  );
}

const access: Access = { role: isAdmin };

export default function AdminOutbox() {
  const { auth, uid } = useGatedAccount(access);

  return (
    <RoleGate
      auth={auth}
      access={access}
      signIn="Sign in with an admin account to read the mail outbox."
      forbidden={<StaffOnly staff="admins" email={accountEmail(auth)} />}
    >
      {uid && <Outbox admin={uid} />}
    </RoleGate>
  );
}

/** The mail log, newest first, a page at a time. */
function Outbox({ admin }: { admin: string }) {
  const page = useStore(outbox.store(admin));
  const more = useShowMore(() => loadMoreOutbox(admin));

  if (!page.data) {
    return page.error ? (
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
        Failed to load the outbox.{' '}
        <button type="button" onClick={() => outbox.refresh(admin)} className="font-semibold underline">
          Try again
        </button>
      </p>
    ) : (
      <p className="text-muted" aria-busy="true">
        Loading the outbox…
      </p>
    );
  }
  const kept = page.data.transport === 'outbox';
  return (
    <div className="space-y-6">
      <p
        role="note"
        className={`rounded-xl p-4 ${kept ? 'bg-amber-50 text-amber-950' : 'bg-blue-50 text-blue-950'}`}
      >
        {kept
          ? 'Emails are not being sent: no mail server is set up yet. Each one is kept here instead, so nothing is lost.'
          : 'Emails go out through the site’s mail server. One that cannot be sent is tried again, waiting longer each time, until it is.'}
      </p>
      <div className="flex items-center gap-4">
        <button
          type="button"
          onClick={() => outbox.refresh(admin)}
          className="border-brand text-brand-dark hover:bg-brand-light rounded-full border px-4 py-1.5 text-sm font-semibold"
        >
          Refresh
        </button>
      </div>
      {page.data.emails.length === 0 ? (
        <p className="text-muted">No email yet.</p>
      ) : (
        <ul aria-label="Emails, newest first" className="space-y-4">
          {page.data.emails.map((email) => (
            <li key={email.id}>
              <article
                aria-labelledby={`email-${email.id}`}
                className="border-sand rounded-2xl border bg-white p-5 shadow-sm"
              >
                <h2 id={`email-${email.id}`} className="text-ink text-lg font-semibold break-words">
                  {email.subject}
                </h2>
                <p className="text-muted mt-1 text-sm">
                  To <span className="text-ink font-medium break-all">{email.to}</span> ·{' '}
                  <When iso={email.createdAt} /> · <State email={email} kept={kept} />
                </p>
                {email.lastError && (
                  <div className="mt-1 text-sm">
                    <p className="text-red-900">
                      The mail server did not take it the last time; we keep trying.
                    </p>
                    <details className="mt-1">
                      <summary className="text-muted cursor-pointer">Technical details</summary>
                      <code className="mt-1 block text-xs break-all">{email.lastError}</code>
                    </details>
                  </div>
                )}
                <details className="mt-3">
                  <summary className="text-brand-dark cursor-pointer text-sm font-semibold">
                    Show the message
                  </summary>
                  {Object.keys(email.headers).length > 0 && (
                    <pre className="bg-cream mt-2 rounded-lg p-3 text-xs break-all whitespace-pre-wrap">
                      {Object.entries(email.headers)
                        .map(([name, value]) => `${name}: ${value}`)
                        .join('\n')}
                    </pre>
                  )}
                  <pre className="bg-cream text-ink mt-2 rounded-lg p-3 text-sm break-words whitespace-pre-wrap">
                    {email.text}
                  </pre>
                </details>
              </article>
            </li>
          ))}
        </ul>
      )}
      {page.data.next !== null && (
        <ShowMore
          state={more.state}
          onClick={more.run}
          label="Show older emails"
          loadingLabel="Loading older emails…"
          failure="Failed to load older emails. Please try again."
        />
      )}
    </div>
  );
}
