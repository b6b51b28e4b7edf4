// @vitest-environment jsdom
// "People and roles" on /admin in jsdom with the real stores: only the network is stubbed
// (globalThis.fetch answers the admin API's JSON). Finding a person, the confirm step, the request
// it sends, the toast, the list in plain words, and nothing at all for a parent.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PersonWithRole } from '../../api/contract.ts';
import PeopleAndRoles from '../../src/islands/admin/PeopleAndRoles.tsx';
import { $toasts } from '../../src/stores/toast.ts';
import { signInAs } from '../helpers/signed-in.ts';

const realFetch = globalThis.fetch;
afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
  $toasts.set([]);
});

const person = (
  name: string,
  email: string,
  role: PersonWithRole['role'],
  isYou = false,
): PersonWithRole => ({
  name,
  email,
  role,
  roleChangedAt: '2026-11-20T10:00:00Z',
  isYou,
});

const ari = person('Ari Admin', 'ari@example.com', 'admin', true);
const mo = person('Mo Moderator', 'mo@example.com', 'moderator');
const rae = person('Rae Reader', 'rae@example.com', 'user');

type Answer = { status: number; body: unknown };
let calls: { method: string; url: string; body: unknown }[];

function stubFetch(answers: Record<string, (body: unknown) => Answer>) {
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const answer = (answers[`${method} ${url}`] ?? (() => ({ status: 404, body: { error: 'Not found' } })))(
      body,
    );
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
}

describe('People and roles', () => {
  it('shows nothing, and asks nothing, for someone who is not an admin', () => {
    stubFetch({});
    signInAs('editor');
    const { container } = render(<PeopleAndRoles />);
    expect(container.innerHTML).toBe('');
    expect(calls).toEqual([]);
  });

  it('lists who has a role in plain words, with "You" instead of a button on your own row', async () => {
    stubFetch({ 'GET /api/admin/staff': () => ({ status: 200, body: [ari, mo] }) });
    signInAs('admin');
    render(<PeopleAndRoles />);
    const table = await screen.findByRole('table', {
      name: 'Who writes, publishes, moderates and administers',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'NameEmailRoleChangedActions',
      expect.stringMatching(/^Ari Adminari@example\.comAdmin.*You$/),
      expect.stringMatching(/^Mo Moderatormo@example\.comModerator.*Change role$/),
    ]);
    expect(within(table).queryByText('moderator')).toBeNull();
    expect(screen.getByRole('button', { name: 'Change the role of Mo Moderator' })).toBeTruthy();
  });

  it(
    'finds a person, asks before changing their role, then says so and lists them',
    { timeout: 20_000 },
    async () => {
      const editor = { ...rae, role: 'editor' as const, roleChangedAt: '2026-11-22T12:00:00Z' };
      let listed = [ari];
      stubFetch({
        'GET /api/admin/staff': () => ({ status: 200, body: listed }),
        'GET /api/admin/people?email=rae%40example.com': () => ({ status: 200, body: rae }),
        'PUT /api/admin/people/role': () => {
          listed = [ari, editor];
          return { status: 200, body: editor };
        },
      });
      signInAs('admin');
      const user = userEvent.setup();
      render(<PeopleAndRoles />);
      await screen.findByRole('table');

      await user.type(screen.getByLabelText('Email address'), 'rae@example.com');
      await user.click(screen.getByRole('button', { name: 'Find' }));
      const card = await screen.findByRole('group', { name: 'Rae Reader' });
      expect(within(card).getByText('Parent', { selector: 'strong' })).toBeTruthy();

      const select = within(card).getByLabelText('New role for Rae Reader');
      // Nothing to change yet: the button says so by being unavailable, and asks nothing.
      await user.click(within(card).getByRole('button', { name: 'Change role' }));
      expect(screen.queryByRole('dialog')).toBeNull();

      await user.selectOptions(select, 'Editor');
      expect(select.getAttribute('aria-describedby')).toBeTruthy();
      expect(within(card).getByText(/publishes, schedules and withdraws posts/)).toBeTruthy();
      await user.click(within(card).getByRole('button', { name: 'Change role' }));

      const dialog = await screen.findByRole('dialog', { name: 'Make Rae Reader an Editor?' });
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
      await user.click(within(dialog).getByRole('button', { name: 'Change role' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        { method: 'PUT', url: '/api/admin/people/role', body: { email: 'rae@example.com', role: 'editor' } },
      ]);
      expect($toasts.get()[0]).toMatchObject({
        title: 'Role changed',
        description: 'Rae Reader is now Editor.',
      });
      expect(within(card).getByText('Editor', { selector: 'strong' })).toBeTruthy();
      const table = screen.getByRole('table');
      await within(table).findByText('rae@example.com');
    },
  );

  it('says plainly when nobody has signed in with the address, or none was typed', async () => {
    stubFetch({
      'GET /api/admin/staff': () => ({ status: 200, body: [ari] }),
      'GET /api/admin/people?email=new%40example.com': () => ({
        status: 404,
        body: { error: 'No one has signed in with that email yet.' },
      }),
    });
    signInAs('admin');
    const user = userEvent.setup();
    render(<PeopleAndRoles />);
    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Type the email address they signed in with.',
    );

    const input = screen.getByLabelText('Email address');
    await user.type(input, 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('No one has signed in with that email yet.'),
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(screen.queryByRole('group')).toBeNull();
  });

  it(
    'offers no change of your own role, and shows the refusal the server gives',
    { timeout: 20_000 },
    async () => {
      stubFetch({
        'GET /api/admin/staff': () => ({ status: 200, body: [ari, mo] }),
        'GET /api/admin/people?email=ari%40example.com': () => ({ status: 200, body: ari }),
        'PUT /api/admin/people/role': () => ({
          status: 403,
          body: { error: 'Only admins may change roles. Ask an admin to run npm run user:role for you.' },
        }),
      });
      signInAs('admin');
      const user = userEvent.setup();
      render(<PeopleAndRoles />);
      await user.type(screen.getByLabelText('Email address'), 'ari@example.com');
      await user.click(screen.getByRole('button', { name: 'Find' }));
      const me = await screen.findByRole('group', { name: 'Ari Admin' });
      expect(within(me).getByText('This is you. Only another admin can change your role.')).toBeTruthy();
      expect(within(me).queryByRole('combobox')).toBeNull();

      // From the list: the moderator's card, focus on the role; a refused change stays in the dialog.
      await user.click(await screen.findByRole('button', { name: 'Change the role of Mo Moderator' }));
      const card = await screen.findByRole('group', { name: 'Mo Moderator' });
      const select = within(card).getByLabelText('New role for Mo Moderator');
      await waitFor(() => expect(document.activeElement).toBe(select));
      await user.selectOptions(select, 'Author');
      await user.click(within(card).getByRole('button', { name: 'Change role' }));
      const dialog = await screen.findByRole('dialog', { name: 'Make Mo Moderator an Author?' });
      await user.click(within(dialog).getByRole('button', { name: 'Change role' }));
      expect((await within(dialog).findByRole('alert')).textContent).toContain(
        'Only admins may change roles.',
      );
      expect($toasts.get()).toEqual([]);
    },
  );
});
