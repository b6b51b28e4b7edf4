// The pages the links in our emails open (/email/confirm, /email/unsubscribe; docs/product.md,
// "Email"): they do what the link says at once, without signing in, and say what happened.
import { useEffect, useRef, useState } from 'react';
import { LINK_TOKEN_PATTERN, UNSUBSCRIBE_SCOPES, type UnsubscribeScope } from '../../api/contract.ts';
import { SITE_NAME } from '../config.ts';
import { errorMessage } from '../lib/api.ts';
import { confirmEmailLink, unsubscribeLink } from '../stores/notifications.ts';

type Outcome =
  { state: 'working' } | { state: 'done'; title: string; text: string } | { state: 'failed'; text: string };

const isScope = (value: string | null): value is UnsubscribeScope =>
  (UNSUBSCRIBE_SCOPES as readonly (string | null)[]).includes(value);

const INCOMPLETE = 'This link is incomplete. Open it from the email again, or copy the whole address.';

async function follow(action: 'confirm' | 'unsubscribe', params: URLSearchParams): Promise<Outcome> {
  const token = params.get('token') ?? '';
  const scope = params.get('scope');
  if (!LINK_TOKEN_PATTERN.test(token)) return { state: 'failed', text: INCOMPLETE };
  if (action === 'confirm') {
    const { alreadyConfirmed } = await confirmEmailLink(token);
    return {
      state: 'done',
      title: alreadyConfirmed ? 'Already confirmed' : 'Your email address is confirmed',
      text: alreadyConfirmed
        ? 'This link was used before: your reply emails are already on. Nothing changed.'
        : 'We will email you when someone replies in the discussions you follow, at most once an hour for each.',
    };
  }
  if (!isScope(scope)) return { state: 'failed', text: INCOMPLETE };
  const done = await unsubscribeLink(token, scope);
  return done.scope === 'thread'
    ? {
        state: 'done',
        title: 'Unsubscribed from this discussion',
        text: `You will get no more emails about replies in “${done.postTitle ?? 'this discussion'}”. To stop every email from ${SITE_NAME}, use the other link in the email.`,
      }
    : {
        state: 'done',
        title: `Unsubscribed from all ${SITE_NAME} emails`,
        text: `You will get no more reply emails from ${SITE_NAME}. To have them again, tick “Email me when someone replies” under any post's comment box.`,
      };
}

export default function EmailLinkAction({ action }: { action: 'confirm' | 'unsubscribe' }) {
  const [outcome, setOutcome] = useState<Outcome>({ state: 'working' });
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let current = true;
    follow(action, new URLSearchParams(window.location.search))
      .catch((error: unknown): Outcome => ({ state: 'failed', text: errorMessage(error) }))
      .then((result) => {
        if (current) setOutcome(result);
      });
    return () => {
      current = false;
    };
  }, [action]);

  useEffect(() => {
    if (outcome.state !== 'working') headingRef.current?.focus();
  }, [outcome.state]);

  if (outcome.state === 'working') {
    return (
      <p role="status" aria-busy="true" className="text-muted">
        {action === 'confirm' ? 'Confirming your email address…' : 'Unsubscribing…'}
      </p>
    );
  }
  const failed = outcome.state === 'failed';
  return (
    <section
      aria-labelledby="outcome-heading"
      className={`rounded-2xl p-6 ${failed ? 'bg-amber-50 text-amber-950' : 'bg-brand-light text-brand-dark'}`}
    >
      <h2
        id="outcome-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-xl font-bold focus:outline-none"
      >
        {failed ? 'That did not work' : outcome.title}
      </h2>
      <p className="mt-2">{outcome.text}</p>
      <a href="/blog" className="mt-4 inline-block font-semibold underline underline-offset-4">
        Go to the blog
      </a>
    </section>
  );
}
