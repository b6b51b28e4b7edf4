// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DeletionRequestForm from '../../src/islands/DeletionRequestForm.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The network boundary: answers POST /api/account/deletion-requests. */
function stubApi(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the deletion request form', () => {
  it('asks for a valid email and the confirmation before sending anything', async () => {
    const fetch = stubApi(201, { received: true });
    const user = userEvent.setup();
    render(<DeletionRequestForm />);
    await user.click(screen.getByRole('button', { name: 'Request Account Deletion' }));
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Please confirm that you understand deletion is permanent')).toBeTruthy();
    await user.type(screen.getByLabelText('Email address of the account'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Request Account Deletion' }));
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('files the request and confirms it', async () => {
    const fetch = stubApi(201, { received: true });
    const user = userEvent.setup();
    render(<DeletionRequestForm />);
    await user.type(screen.getByLabelText('Email address of the account'), ' parent@example.com ');
    await user.selectOptions(screen.getByLabelText('Reason (optional)'), 'Privacy concerns');
    await user.type(screen.getByLabelText('Additional information (optional)'), 'Thanks');
    await user.click(screen.getByLabelText(/deleting my account is permanent/));
    await user.click(screen.getByRole('button', { name: 'Request Account Deletion' }));
    expect((await screen.findByRole('status')).textContent).toContain('within 30 days');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/account/deletion-requests');
    expect(JSON.parse(init.body as string)).toEqual({
      email: 'parent@example.com',
      reason: 'Privacy concerns',
      additionalInfo: 'Thanks',
      confirmed: true,
    });
  });

  it('disables the button and says Submitting… while the request is in flight', async () => {
    let answer!: (response: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const user = userEvent.setup();
    render(<DeletionRequestForm />);
    await user.type(screen.getByLabelText('Email address of the account'), 'parent@example.com');
    await user.click(screen.getByLabelText(/deleting my account is permanent/));
    await user.click(screen.getByRole('button', { name: 'Request Account Deletion' }));
    const busy = screen.getByRole('button', { name: 'Submitting…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    answer(new Response(JSON.stringify({ received: true }), { status: 201 }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Request received. We have emailed you to confirm it, and will email you again when it is done, within 30 days.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("shows the API's message on failure and keeps what was typed", async () => {
    stubApi(429, { error: 'Too many requests. Try again in 30 s.' });
    const user = userEvent.setup();
    render(<DeletionRequestForm />);
    await user.type(screen.getByLabelText('Email address of the account'), 'parent@example.com');
    await user.click(screen.getByLabelText(/deleting my account is permanent/));
    await user.click(screen.getByRole('button', { name: 'Request Account Deletion' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Try again in 30 s.');
    expect((screen.getByLabelText('Email address of the account') as HTMLInputElement).value).toBe(
      'parent@example.com',
    );
  });
});
