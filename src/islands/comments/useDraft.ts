import { useRef, useState } from 'react';

/**
 * One comment box's draft: its text, whether it is being sent, and why sending failed. `submit`
 * sends the text and clears it only when sending worked: on a failure the parent's words stay in
 * the box with the error beside them, and the box keeps the focus.
 */
export function useDraft(describe: (error: unknown) => string) {
  const [text, setText] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);

  /** Starts over with `initial` (an edit starts from the comment's words). */
  function reset(initial = '') {
    setText(initial);
    setError(null);
  }

  /** Sends the text with `send`; true when it worked (the box is then empty). */
  async function submit(send: (text: string) => Promise<void>): Promise<boolean> {
    setSubmitting(true);
    setError(null);
    try {
      await send(text);
      setText('');
      return true;
    } catch (failure) {
      console.error('Failed to send', failure);
      setError(describe(failure));
      ref.current?.focus();
      return false;
    } finally {
      setSubmitting(false);
    }
  }

  /** What CommentForm needs of the draft. */
  const field = { value: text, onChange: setText, submitting, error, textareaRef: ref };

  return { text, submitting, ref, field, reset, submit };
}

export type Draft = ReturnType<typeof useDraft>;
