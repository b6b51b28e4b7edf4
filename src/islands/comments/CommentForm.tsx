import { useId, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { COMMENT_MAX_LENGTH } from '../../../api/contract.ts';

interface Props {
  label: string;
  /** Show the label above the field (otherwise it is for screen readers only). */
  showLabel?: boolean;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  submitting: boolean;
  submitLabel: string;
  onCancel?: () => void;
  error: string | null;
  textareaRef?: Ref<HTMLTextAreaElement>;
  rows?: number;
  /** A line under the box that the field is described by (e.g. how long an edit may take). */
  hint?: string;
  /** Beside the buttons: the "Email me when someone replies" box (comments and replies, not edits). */
  notify?: ReactNode;
}

/** A comment or reply box: labelled textarea, character counter, post button and errors. */
export function CommentForm({
  label,
  showLabel = false,
  placeholder,
  value,
  onChange,
  onSubmit,
  submitting,
  submitLabel,
  onCancel,
  error,
  textareaRef,
  rows = 4,
  hint,
  notify,
}: Props) {
  const id = useId();
  const blank = value.trim().length === 0;
  const counterId = `${id}-count`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [counterId, hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    if (!blank && !submitting) onSubmit();
  }

  // Ctrl/Cmd+Enter posts, as in most comment boxes; plain Enter adds a line.
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
  }

  return (
    <form onSubmit={submit} className="grid gap-2" aria-busy={submitting || undefined}>
      <label htmlFor={`${id}-text`} className={showLabel ? 'text-ink text-sm font-medium' : 'sr-only'}>
        {label}
      </label>
      <textarea
        id={`${id}-text`}
        ref={textareaRef}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        rows={rows}
        maxLength={COMMENT_MAX_LENGTH}
        placeholder={placeholder}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className="border-sand text-ink placeholder:text-muted focus:border-brand focus:ring-brand/30 w-full resize-y rounded-lg border bg-white px-3 py-2 focus:ring-2 focus:outline-none"
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-muted text-xs">
          <span id={counterId}>
            {value.length}/{COMMENT_MAX_LENGTH} characters
          </span>
          {hint && <span id={hintId}> · {hint}</span>}
        </p>
        <div className="flex gap-2">
          {onCancel && (
            <button
              type="button"
              onClick={onCancel}
              className="border-sand text-ink hover:bg-sand rounded-lg border bg-white px-4 py-2 text-sm font-medium"
            >
              Cancel
            </button>
          )}
          <button
            type="submit"
            disabled={blank || submitting}
            className="bg-brand hover:bg-brand-dark inline-flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-white disabled:cursor-not-allowed disabled:opacity-60"
          >
            {submitting && (
              <span
                aria-hidden="true"
                className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-white/40 border-t-white"
              />
            )}
            {submitLabel}
          </button>
        </div>
      </div>
      {notify}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
