// The frame every action dialog shares: Radix Dialog (focus trap, Escape, an accessible title and
// description, focus back to the opener), an overlay and a close button.
import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useState } from 'react';
import { CloseIcon } from '../../components/icons.tsx';

interface Props {
  title: string;
  description: ReactNode;
  onClose: () => void;
  /** Where focus goes when the dialog closes and its opener is gone (a deleted comment's button). */
  fallbackFocus?: () => HTMLElement | null;
  children: ReactNode;
}

export function DialogShell({ title, description, onClose, fallbackFocus, children }: Props) {
  // The element that had focus when the dialog opened: Radix returns focus to it if it still exists.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          // Without a Dialog.Trigger Radix would focus nothing: back to the opener, or the fallback.
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const target = opener instanceof HTMLElement && opener.isConnected ? opener : fallbackFocus?.();
            target?.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-ink text-xl font-bold">{title}</Dialog.Title>
            <Dialog.Close
              aria-label="Close"
              className="text-muted hover:bg-sand hover:text-ink -mt-1 -mr-2 rounded-md p-1.5"
            >
              <CloseIcon className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description asChild>
            <div className="text-muted mt-1 text-sm">{description}</div>
          </Dialog.Description>
          <div className="mt-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const buttons = {
  primary:
    'bg-brand hover:bg-brand-dark rounded-lg px-4 py-2 text-sm font-semibold text-white aria-disabled:cursor-wait aria-disabled:opacity-60',
  danger:
    'rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 aria-disabled:cursor-wait aria-disabled:opacity-60',
  secondary: 'border-sand text-ink hover:bg-sand rounded-lg border bg-white px-4 py-2 text-sm font-medium',
};

const field =
  'border-sand text-ink focus:border-brand focus:ring-brand/30 mt-1 block w-full rounded-lg border bg-white px-3 py-2 focus:ring-2 focus:outline-none';

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  max: number;
  required?: boolean;
  /** The form's error, when it is about this field. */
  errorId?: string;
}

/** A labelled text box with a character counter it is described by. */
export function CountedTextarea({ id, label, value, onChange, max, required, errorId }: TextFieldProps) {
  return (
    <div>
      <label htmlFor={id} className="text-ink text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={max}
        rows={3}
        required={required}
        aria-describedby={errorId ? `${id}-count ${errorId}` : `${id}-count`}
        aria-invalid={errorId ? true : undefined}
        className={field}
      />
      <p id={`${id}-count`} className="text-muted mt-1 text-xs">
        {value.length}/{max} characters
      </p>
    </div>
  );
}

interface FooterProps {
  /** The form's error, if any (announced), with the id its fields are described by. */
  error: string | null;
  errorId: string;
  onCancel: () => void;
  submitLabel: string;
  working: boolean;
  destructive?: boolean;
}

/**
 * The end of a dialog's form: its error, and Cancel beside the submit button. It stays in sight at
 * the bottom of a dialog taller than the screen (a phone), over the fields scrolling behind it.
 */
export function DialogFooter({ error, errorId, onCancel, submitLabel, working, destructive }: FooterProps) {
  return (
    <div className="sticky -bottom-6 -mx-6 -mb-6 space-y-3 bg-white px-6 pt-3 pb-6">
      {error && (
        <p id={errorId} role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onCancel} className={buttons.secondary}>
          Cancel
        </button>
        <button
          type="submit"
          aria-disabled={working || undefined}
          className={destructive ? buttons.danger : buttons.primary}
        >
          {submitLabel}
        </button>
      </div>
    </div>
  );
}
