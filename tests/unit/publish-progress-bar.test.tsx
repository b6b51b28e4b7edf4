// @vitest-environment jsdom
// The one progress display /admin and the studio share (docs/product.md, "Publishing"): each
// phase's words, the counts with and without a total, the bar's value, maximum and name, and how
// much of the site the build renders.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PUBLISH_PHASE_LABELS, PUBLISH_PHASES, type PublishProgress } from '../../api/contract.ts';
import { PublishProgressBar } from '../../src/components/PublishProgressBar.tsx';

afterEach(cleanup);

const at = (progress: Partial<PublishProgress>): PublishProgress => ({
  phase: 'rendering',
  done: 0,
  total: null,
  incremental: null,
  ...progress,
});

function show(progress: PublishProgress) {
  const view = render(<PublishProgressBar progress={progress} name="Release #12" />);
  const bar = screen.getByRole('progressbar');
  return { ...view, bar, text: view.container.textContent };
}

describe('PublishProgressBar', () => {
  it('names every phase in words, and names the bar after the run and its phase', () => {
    const expected = {
      syncing: 'Reading the posts',
      rendering: 'Rendering pages',
      indexing: 'Indexing for search',
      compressing: 'Compressing',
      switching: 'Going live',
    };
    for (const phase of PUBLISH_PHASES) {
      const { bar, text, unmount } = show(at({ phase }));
      expect(PUBLISH_PHASE_LABELS[phase]).toBe(expected[phase]);
      expect(text).toContain(expected[phase]);
      expect(screen.getByRole('progressbar', { name: `Release #12: ${expected[phase]}` })).toBe(bar);
      unmount();
    }
  });

  it('counts pages while rendering: "N of M pages" once the total is known, "N pages" before', () => {
    const before = show(at({ phase: 'rendering', done: 30 }));
    expect(before.text).toBe('Rendering pages30 pages');
    // No total: an indeterminate bar (no value), which browsers draw as "working on it".
    expect(before.bar.hasAttribute('value')).toBe(false);
    expect((before.bar as HTMLProgressElement).position).toBe(-1);
    before.unmount();

    const known = show(at({ phase: 'rendering', done: 1200, total: 3400 }));
    expect(known.text).toBe('Rendering pages1,200 of 3,400 pages');
    expect(known.bar.getAttribute('value')).toBe('1200');
    expect(known.bar.getAttribute('max')).toBe('3400');
    expect(known.bar.getAttribute('aria-valuetext')).toBe('1,200 of 3,400 pages');
    known.unmount();

    expect(show(at({ phase: 'rendering', done: 1 })).text).toBe('Rendering pages1 page');
  });

  it('counts files while compressing, and nothing in the phases that count nothing', () => {
    const compressing = show(at({ phase: 'compressing', done: 4, total: 9 }));
    expect(compressing.text).toBe('Compressing4 of 9 files');
    expect(compressing.bar.getAttribute('value')).toBe('4');
    expect(compressing.bar.getAttribute('max')).toBe('9');
    compressing.unmount();

    for (const phase of ['syncing', 'indexing', 'switching'] as const) {
      const { text, bar, unmount } = show(at({ phase }));
      expect(text).toBe(PUBLISH_PHASE_LABELS[phase]);
      expect(bar.hasAttribute('value')).toBe(false);
      expect(bar.hasAttribute('aria-valuetext')).toBe(false);
      unmount();
    }
  });

  it('never shows a bar past its end, and shows nothing to do as done', () => {
    const over = show(at({ done: 130, total: 120 }));
    expect(over.bar.getAttribute('value')).toBe('120');
    over.unmount();
    const nothing = show(at({ done: 0, total: 0 }));
    expect((nothing.bar as HTMLProgressElement).position).toBe(1);
  });

  it('says whether the build renders only what changed or the whole site, once it knows', () => {
    expect(show(at({ incremental: null })).text).not.toMatch(/whole site|this change touches/);
    cleanup();
    expect(show(at({ incremental: true })).text).toContain('Only the pages this change touches');
    cleanup();
    expect(show(at({ incremental: false })).text).toContain('The whole site');
  });

  it('goes from a measured bar back to an indeterminate one as the phase changes', () => {
    const { rerender, bar } = show(at({ phase: 'compressing', done: 9, total: 9 }));
    expect(bar.getAttribute('value')).toBe('9');
    rerender(<PublishProgressBar progress={at({ phase: 'switching' })} name="Release #12" />);
    const now = screen.getByRole('progressbar', { name: 'Release #12: Going live' });
    expect(now.hasAttribute('value')).toBe(false);
    expect((now as HTMLProgressElement).position).toBe(-1);
  });

  it('moves only where motion is welcome (prefers-reduced-motion: no animation, no transition)', () => {
    const { bar } = show(at({ done: 3, total: 9 }));
    const moving = [...bar.classList].filter((name) => /animate-|transition|duration-/.test(name));
    expect(moving.length).toBeGreaterThan(0);
    expect(moving.filter((name) => !name.startsWith('motion-safe:'))).toEqual([]);
  });
});
