// A dialog that confirms one action, with a written reason where the action needs one: deleting
// or removing a comment in a thread, and every decision in the moderation console.
import { type ReactNode, type SubmitEvent, useId, useState } from 'react';
import { MODERATION_REASON_MAX } from '../../../api/contract.ts';
import { errorMessage } from '../../lib/api.ts';
import { CountedTextarea, DialogFooter, DialogShell } from './DialogShell.tsx';

export interface ActionDialogProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** 'required': the action needs a reason; 'optional': it may have one; 'none': no reason field. */
  reason: 'required' | 'optional' | 'none';
  reasonLabel?: string;
  destructive?: boolean;
  /** Extra fields (e.g. a suspension's length), rendered above the reason. */
  children?: ReactNode;
  /** Does the action; a thrown error is shown in the dialog, which keeps what was typed. */
  onConfirm: (reason: string | null) => Promise<void>;
  onClose: () => void;
  fallbackFocus?: () => HTMLElement | null;
}

export function ActionDialog({
  title,
  description,
  confirmLabel,
  reason: reasonRule,
  reasonLabel = 'Reason',
  destructive = false,
  children,
  onConfirm,
  onClose,
  fallbackFocus,
}: ActionDialogProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    const text = reason.trim();
    if (reasonRule === 'required' && !text) {
      setError('Please write a reason.');
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    setWorking(true);
    setError(null);
    try {
      await onConfirm(reasonRule === 'none' ? null : text || null);
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
      setWorking(false);
    }
  }

  return (
    <DialogShell title={title} description={description} onClose={onClose} fallbackFocus={fallbackFocus}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-busy={working || undefined}>
        {children}
        {reasonRule !== 'none' && (
          <CountedTextarea
            id={`${id}-reason`}
            label={`${reasonLabel}${reasonRule === 'optional' ? ' (optional)' : ''}`}
            value={reason}
            onChange={setReason}
            max={MODERATION_REASON_MAX}
            required={reasonRule === 'required'}
            errorId={error && reasonRule === 'required' && !reason.trim() ? `${id}-error` : undefined}
          />
        )}
        <DialogFooter
          error={error}
          errorId={`${id}-error`}
          onCancel={onClose}
          submitLabel={working ? `${confirmLabel}…` : confirmLabel}
          working={working}
          destructive={destructive}
        />
      </form>
    </DialogShell>
  );
}
