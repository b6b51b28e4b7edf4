// The admin page's deletion queue (docs/product.md, "Deleting your account"): requests from the
// deletion form with their due dates, overdue ones marked, and the two ways to close one. Shown to
// admins only; the publishing panel above tells everyone else why the page is not for them.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { DELETION_DUE_DAYS, type DeletionRequest, isAdmin } from '../../api/contract.ts';
import { type Column, DataTable } from '../components/DataTable.tsx';
import { reasonLabel } from '../lib/format.ts';
import { formatDate } from '../lib/time.ts';
import { closeAsNoAccount, deletionRequests, eraseForRequest } from '../stores/admin.ts';
import { $auth, initAuth } from '../stores/auth.ts';
import { ActionDialog, type ActionDialogProps } from './dialogs/ActionDialog.tsx';
import { When } from './moderation/parts.tsx';

const OUTCOMES: Record<DeletionRequest['status'], string> = {
  open: 'Open',
  erased: 'Account erased',
  no_account: 'No account found',
};

const small = 'rounded-lg px-3 py-1.5 text-sm font-semibold';

function openColumns(act: Record<'erase' | 'close', (request: DeletionRequest) => void>) {
  const columns: Column<DeletionRequest>[] = [
    { head: 'Email', cell: (request) => request.email, className: 'font-medium break-all' },
    { head: 'Received', cell: (request) => <When iso={request.createdAt} /> },
    {
      head: 'Due',
      cell: (request) => (
        <span className={request.overdue ? 'font-semibold text-red-800' : ''}>
          {request.overdue && (
            <span className="mr-1 inline-block rounded-full bg-red-700 px-2 py-0.5 text-xs text-white">
              Overdue
            </span>
          )}
          <time dateTime={request.dueAt}>{formatDate(request.dueAt)}</time>
        </span>
      ),
    },
    {
      head: 'Reason',
      cell: (request) => (
        <>
          {reasonLabel(request.reason)}
          {request.additionalInfo && (
            <span className="text-muted mt-1 block break-words whitespace-pre-line">
              {request.additionalInfo}
            </span>
          )}
        </>
      ),
    },
    {
      head: 'Actions',
      cell: (request) => (
        <span className="mt-2 flex flex-wrap gap-2 sm:mt-0">
          <button
            type="button"
            onClick={() => act.erase(request)}
            aria-label={`Erase the account of ${request.email}`}
            className={`${small} bg-red-700 text-white hover:bg-red-800`}
          >
            Erase account
          </button>
          <button
            type="button"
            onClick={() => act.close(request)}
            aria-label={`Close the request of ${request.email}: no account found`}
            className={`${small} border-sand text-ink hover:bg-sand border bg-white`}
          >
            No account found
          </button>
        </span>
      ),
    },
  ];
  return columns;
}

const closedColumns: Column<DeletionRequest>[] = [
  { head: 'Request', cell: (request) => `#${request.id}` },
  { head: 'Received', cell: (request) => <When iso={request.createdAt} /> },
  { head: 'Closed', cell: (request) => <When iso={request.closedAt} /> },
  { head: 'Outcome', cell: (request) => OUTCOMES[request.status] },
  { head: 'By', cell: (request) => request.closedByName ?? '—' },
];

export default function AdminDeletionRequests() {
  const auth = useStore($auth, { ssr: 'initial' });
  const uid =
    !auth.loading && !auth.demoMode && isAdmin(auth.profile?.role) ? (auth.user?.uid ?? null) : null;
  const list = useStore(deletionRequests.store(uid));
  const [dialog, setDialog] = useState<Omit<ActionDialogProps, 'onClose'> | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => initAuth(), []);
  if (!uid) return null;
  const admin = uid;

  function erase(request: DeletionRequest) {
    setDialog({
      title: `Erase the account of ${request.email}?`,
      description:
        'The account that uses this address is deleted at once, exactly as if its owner had deleted it, and they get the confirmation email. This cannot be undone.',
      confirmLabel: 'Erase account',
      reason: 'none',
      destructive: true,
      onConfirm: async () => {
        await eraseForRequest(admin, request.id);
        setStatus(`Request #${request.id}: the account was erased and the confirmation email is on its way.`);
      },
    });
  }

  function close(request: DeletionRequest) {
    setDialog({
      title: 'Close as “no account found”?',
      description: `No account uses ${request.email}. The requester is told so by email, and the address is not kept.`,
      confirmLabel: 'Close request',
      reason: 'none',
      onConfirm: async () => {
        await closeAsNoAccount(admin, request.id);
        setStatus(`Request #${request.id} was closed: no account found. The requester is being emailed.`);
      },
    });
  }

  return (
    <section aria-labelledby="deletions-heading" className="space-y-4">
      <h2 id="deletions-heading" className="text-ink text-2xl font-bold">
        Deletion requests
        {list.data && <span className="text-muted font-semibold"> ({list.data.open.length} open)</span>}
      </h2>
      <p className="text-muted">
        Requests from the{' '}
        <a href="/delete-account" className="underline underline-offset-4">
          deletion form
        </a>
        , due {DELETION_DUE_DAYS} days after they arrive. <strong>Erase account</strong> deletes the account
        that uses the address; <strong>No account found</strong> closes a request for an address no account
        uses. The requester is emailed either way. Sent mail is in the{' '}
        <a href="/admin/outbox" className="underline underline-offset-4">
          mail outbox
        </a>
        .
      </p>
      <p
        id="deletions-status"
        role="status"
        tabIndex={-1}
        className="text-ink min-h-6 font-medium focus:outline-none"
      >
        {status}
      </p>
      {!list.data ? (
        list.error ? (
          <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
            Failed to load the deletion requests.{' '}
            <button
              type="button"
              onClick={() => deletionRequests.refresh(admin)}
              className="font-semibold underline"
            >
              Try again
            </button>
          </p>
        ) : (
          <p className="text-muted" aria-busy="true">
            Loading deletion requests…
          </p>
        )
      ) : (
        <>
          {list.data.open.length === 0 ? (
            <p className="text-muted">No request is waiting.</p>
          ) : (
            <DataTable
              caption="Open requests, oldest first"
              columns={openColumns({ erase, close })}
              rows={list.data.open}
              rowKey={(request) => request.id}
            />
          )}
          <DataTable
            caption="Recently closed"
            columns={closedColumns}
            rows={list.data.closed}
            rowKey={(request) => request.id}
          />
        </>
      )}
      {dialog && (
        <ActionDialog
          {...dialog}
          onClose={() => setDialog(null)}
          fallbackFocus={() => document.getElementById('deletions-status')}
        />
      )}
    </section>
  );
}
