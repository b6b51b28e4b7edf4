// @vitest-environment jsdom
// The account menu offers each signed-in person the screens their role opens (docs/product.md,
// "Roles"): the studio to authors, editors and admins, moderation to moderators and admins, the
// admin page to admins; a parent gets their account only.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import AccountMenu from '../../src/islands/AccountMenu.tsx';
import { $auth } from '../../src/stores/auth.ts';

afterEach(cleanup);

function signIn(role: string, demoMode = false) {
  $auth.set({
    user: {
      uid: 'u1',
      displayName: 'Eda Editor',
      email: 'eda@example.com',
      photoURL: null,
      emailVerified: true,
      isAnonymous: false,
    },
    profile: {
      firebase_uid: 'u1',
      display_name: 'Eda Editor',
      email: 'eda@example.com',
      photo_url: null,
      role,
      user_type: ['buyer'],
      created_at: '2026-11-01T00:00:00Z',
      updated_at: '2026-11-01T00:00:00Z',
      suspension: null,
    },
    loading: false,
    demoMode,
  });
}

/** Opens the menu from the keyboard and returns the names of its links. */
async function menuLinks(role: string, demoMode = false): Promise<string[]> {
  signIn(role, demoMode);
  const user = userEvent.setup();
  render(<AccountMenu onLeave={() => undefined} />);
  screen.getByRole('button', { name: 'Account menu for Eda Editor' }).focus();
  await user.keyboard('{Enter}');
  const menu = await screen.findByRole('menu');
  return [...menu.querySelectorAll('a')].map((link) => `${link.textContent} ${link.getAttribute('href')}`);
}

describe('the account menu', () => {
  it('offers the studio to an editor, and not moderation or the admin page', async () => {
    expect(await menuLinks('editor')).toEqual(['Your account /account', 'Studio /studio']);
  });

  it('offers the studio to an author and to an admin, beside what else an admin has', async () => {
    expect(await menuLinks('author')).toEqual(['Your account /account', 'Studio /studio']);
    cleanup();
    expect(await menuLinks('admin')).toEqual([
      'Your account /account',
      'Admin /admin',
      'Studio /studio',
      'Moderation /moderation',
    ]);
  });

  it('offers a parent and a moderator no studio', async () => {
    expect(await menuLinks('user')).toEqual(['Your account /account']);
    cleanup();
    expect(await menuLinks('moderator')).toEqual(['Your account /account', 'Moderation /moderation']);
  });
});
