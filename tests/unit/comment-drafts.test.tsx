// @vitest-environment jsdom
// The comment boxes' shared draft hook and demo mode's adapter behind the comments store.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_LOADING_DELAY_MS, DEMO_POSTING_DELAY_MS } from '../../src/config.ts';
import { useDraft } from '../../src/islands/comments/useDraft.ts';
import { countAll } from '../../src/lib/thread.ts';
import {
  $demoThreads,
  dropDemoThread,
  loadDemoThread,
  postDemoComment,
} from '../../src/stores/comments-demo.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useDraft', () => {
  it('keeps the text and says why when sending fails, and empties the box when it works', async () => {
    const { result } = renderHook(() => useDraft((error) => `Could not send: ${String(error)}`));
    act(() => result.current.field.onChange('A question about car seats'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);

    let sent: boolean | undefined;
    await act(async () => {
      sent = await result.current.submit(() => Promise.reject(new Error('offline')));
    });
    expect(sent).toBe(false);
    expect(result.current.text).toBe('A question about car seats');
    expect(result.current.field.error).toBe('Could not send: Error: offline');
    expect(result.current.submitting).toBe(false);

    const received: string[] = [];
    await act(async () => {
      sent = await result.current.submit(async (text) => {
        received.push(text);
      });
    });
    expect(sent).toBe(true);
    expect(received).toEqual(['A question about car seats']);
    expect(result.current.text).toBe('');
    expect(result.current.field.error).toBeNull();
  });

  it('starts an edit from the words given, without the last error', () => {
    const { result } = renderHook(() => useDraft(String));
    act(() => result.current.reset('The comment as it stands'));
    expect(result.current.field.value).toBe('The comment as it stands');
    expect(result.current.field.error).toBeNull();
  });
});

describe("demo mode's comments adapter", () => {
  it('shows the sample thread after the loading delay, adds what is posted, and starts over when dropped', async () => {
    vi.useFakeTimers();
    const postId = 9001;
    loadDemoThread(postId);
    expect($demoThreads.get()[postId]).toBeUndefined();
    await vi.advanceTimersByTimeAsync(DEMO_LOADING_DELAY_MS);
    const sample = $demoThreads.get()[postId]!;
    expect(sample.length).toBeGreaterThan(0);

    const posting = postDemoComment(postId, '  Our stroller folds in one hand.  ', null, 'Dana Demo');
    await vi.advanceTimersByTimeAsync(DEMO_POSTING_DELAY_MS);
    const posted = await posting;
    expect(posted).toMatchObject({ content: 'Our stroller folds in one hand.', author_name: 'Dana Demo' });
    expect(posted.comment_id).toBeLessThan(0);
    const after = $demoThreads.get()[postId]!;
    expect(countAll(after)).toBe(countAll(sample) + 1);
    expect(after[0]!.comment_id).toBe(posted.comment_id);

    // A load still pending when demo mode ends never lands.
    dropDemoThread(postId);
    loadDemoThread(postId);
    dropDemoThread(postId);
    await vi.advanceTimersByTimeAsync(DEMO_LOADING_DELAY_MS);
    expect($demoThreads.get()[postId]).toBeUndefined();
  });
});
