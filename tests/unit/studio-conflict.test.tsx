// @vitest-environment jsdom
// The dialog a save on an old revision opens (docs/product.md, "The studio"): what the other
// person changed, and the two ways on, with focus kept inside and Escape closing it.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StudioPostFields, StudioRevision } from '../../api/contract/studio.ts';
import { ConflictDialog } from '../../src/islands/studio/ConflictDialog.tsx';

afterEach(cleanup);

const base: StudioPostFields = {
  title: 'Car seats, compared',
  slug: 'car-seats-compared',
  excerpt: '',
  markdown: 'Rear-facing is safest.\n\nCheck the harness.\n',
  categories: [],
  kind: 'article',
  featured: false,
  featuredImageUrl: null,
  featuredImageAlt: null,
};
const latest: StudioRevision = {
  ...base,
  title: 'Car seats, compared for 2026',
  markdown: 'Rear-facing is safest.\n\nCheck the harness every month.\n',
  revision: 5,
  savedAt: '2026-11-26T11:58:00Z',
  savedBy: 'Edi Tor',
  restoredFrom: null,
};

function open() {
  const calls = { keep: vi.fn(), theirs: vi.fn(), close: vi.fn() };
  render(
    <>
      <button type="button">Opener</button>
      <ConflictDialog
        base={base}
        baseRevision={4}
        latest={latest}
        onKeepMine={calls.keep}
        onUseTheirs={calls.theirs}
        onClose={calls.close}
      />
    </>,
  );
  return { calls, dialog: screen.getByRole('dialog', { name: 'Someone else saved this post' }) };
}

describe('the conflict dialog', () => {
  it('says who saved what and shows the lines and words they changed', () => {
    const { dialog } = open();
    expect(dialog.textContent).toContain('Edi Tor saved revision 5');
    expect(dialog.textContent).toContain('(revision 4)');
    const removed = [...dialog.querySelectorAll('del')].map((d) => d.textContent);
    const added = [...dialog.querySelectorAll('ins')].map((d) => d.textContent);
    expect(removed).toContain('removed: Check the harness.\n');
    expect(added).toContain('added: Check the harness every month.\n');
    expect(added.some((text) => text?.includes('for 2026'))).toBe(true);
    // The unchanged line is shown, neither added nor removed.
    expect(within(dialog).getByText(/^Rear-facing is safest\./)).toBeTruthy();
  });

  it('takes focus, offers both ways on, and closes on Escape', async () => {
    const user = userEvent.setup();
    const { calls, dialog } = open();
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Focus stays inside the dialog however far one tabs.
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Keep my version' }));
    expect(calls.keep).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Use theirs' }));
    expect(calls.theirs).toHaveBeenCalledTimes(1);
    act(() => {
      fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    });
    expect(calls.close).toHaveBeenCalledTimes(1);
  });
});
