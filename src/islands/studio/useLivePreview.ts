// The live preview beside the editor: the Markdown rendered by the server exactly as the build
// renders it (sanitized), asked for a moment after typing stops, with the word count and reading
// time readers will see. An answer that arrives after a newer one was asked for is dropped.
import { useEffect, useRef, useState } from 'react';
import type { RenderedMarkdown } from '../../../api/contract/studio.ts';
import { errorMessage } from '../../lib/api.ts';
import { renderMarkdown } from '../../stores/studio.ts';

export const PREVIEW_DELAY_MS = 400;

export function useLivePreview(markdown: string, initial: RenderedMarkdown | null) {
  const [rendered, setRendered] = useState<RenderedMarkdown | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const first = useRef(initial !== null);

  useEffect(() => {
    // The post as it was opened already came with its rendering.
    if (first.current) {
      first.current = false;
      return;
    }
    const ask = ++asked.current;
    const timer = setTimeout(() => {
      renderMarkdown(markdown).then(
        (answer) => {
          if (ask !== asked.current) return;
          setRendered(answer);
          setError(null);
        },
        (failure: unknown) => ask === asked.current && setError(errorMessage(failure)),
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [markdown]);

  return { rendered, error };
}
