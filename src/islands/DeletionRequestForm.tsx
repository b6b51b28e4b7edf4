// The first-party deletion form (docs/product.md), used when the email-marketing provider's form
// is not configured. It files the request through POST /api/account/deletion-requests.
import { type SubmitEvent, useId, useState } from 'react';
import { DELETION_INFO_MAX } from '../../api/contract.ts';
import { errorMessage } from '../lib/api.ts';
import { requestDeletion } from '../stores/account.ts';

const REASONS = ['I no longer need the account', 'Privacy concerns', 'I have a different account', 'Other'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Status =
  { state: 'editing' } | { state: 'submitting' } | { state: 'done' } | { state: 'failed'; message: string };

export default function DeletionRequestForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const [additionalInfo, setAdditionalInfo] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; confirmed?: string }>({});
  const [status, setStatus] = useState<Status>({ state: 'editing' });

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = {
      email: EMAIL.test(email.trim()) ? undefined : 'Please enter a valid email address',
      confirmed: confirmed ? undefined : 'Please confirm that you understand deletion is permanent',
    };
    setErrors(found);
    if (found.email || found.confirmed) return;
    setStatus({ state: 'submitting' });
    try {
      await requestDeletion({
        email: email.trim(),
        reason: reason || null,
        additionalInfo: additionalInfo.trim() || null,
      });
      setStatus({ state: 'done' });
    } catch (error) {
      setStatus({ state: 'failed', message: errorMessage(error) });
    }
  }

  if (status.state === 'done') {
    return (
      <p role="status" className="bg-brand-light text-brand-dark rounded-xl p-4">
        Request received. We have emailed you to confirm it, and will email you again when it is done, within
        30 days.
      </p>
    );
  }

  const field = 'mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-ink';
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
      <div>
        <label htmlFor={`${id}-email`} className="text-ink font-semibold">
          Email address of the account
        </label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-email-error` : undefined}
          className={field}
        />
        {errors.email && (
          <p id={`${id}-email-error`} className="mt-1 text-sm text-red-800">
            {errors.email}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-reason`} className="text-ink font-semibold">
          Reason (optional)
        </label>
        <select
          id={`${id}-reason`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          className={field}
        >
          <option value="">Choose a reason</option>
          {REASONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-info`} className="text-ink font-semibold">
          Additional information (optional)
        </label>
        <textarea
          id={`${id}-info`}
          rows={4}
          maxLength={DELETION_INFO_MAX}
          value={additionalInfo}
          onChange={(event) => setAdditionalInfo(event.target.value)}
          className={field}
        />
      </div>
      <div>
        <div className="flex items-start gap-3">
          <input
            id={`${id}-confirm`}
            type="checkbox"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.target.checked)}
            aria-invalid={errors.confirmed ? true : undefined}
            aria-describedby={errors.confirmed ? `${id}-confirm-error` : undefined}
            className="mt-1 h-5 w-5 accent-[var(--color-brand)]"
          />
          <label htmlFor={`${id}-confirm`} className="text-ink">
            I understand that deleting my account is permanent and cannot be undone
          </label>
        </div>
        {errors.confirmed && (
          <p id={`${id}-confirm-error`} className="mt-1 text-sm text-red-800">
            {errors.confirmed}
          </p>
        )}
      </div>
      {status.state === 'failed' && (
        <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-900">
          {status.message}
        </p>
      )}
      <button
        type="submit"
        disabled={status.state === 'submitting'}
        className="rounded-full bg-red-700 px-6 py-3 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
      >
        {status.state === 'submitting' ? 'Submitting…' : 'Request Account Deletion'}
      </button>
    </form>
  );
}
