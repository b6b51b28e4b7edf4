// A real SMTP server (the smtp-server package) inside the test process: records every message it
// accepts, parsed by mailparser, so tests assert on what a mail server really received.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  subject: string;
  text: string;
  /** Header values by lower-case name, as sent (List-Unsubscribe, Message-ID, …). */
  header: (name: string) => string | undefined;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  port: number;
  /** smtp://127.0.0.1:<port>, the form SMTP_URL takes. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived; fails after timeoutMs. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
  /** The first message (already here or still to come) to `to` whose subject matches. */
  message: (to: string, subject: string | RegExp, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

/** How long a file waits for another to let the shared SMTP port go. */
const PORT_WAIT_MS = 240_000;

/** The links in a message's text, in order. */
export function linksIn(mail: ReceivedMail): string[] {
  return mail.text.match(/https?:\/\/\S+/g) ?? [];
}

/**
 * Listens on 127.0.0.1 (on `port`, or a free one) without TLS or authentication. With `reject`,
 * every recipient is refused with a 550, as a mail server refuses an unknown mailbox.
 */
export async function startSmtpServer(
  options: { port?: number; reject?: boolean } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: { done: () => boolean }[] = [];
  /** Resolves with `found()` once it is not undefined; fails after timeoutMs. */
  const until = <T>(found: () => T | undefined, timeoutMs: number, what: () => string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`${what()} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = {
        done: () => {
          const value = found();
          if (value === undefined) return false;
          clearTimeout(timer);
          resolve(value);
          return true;
        },
      };
      if (!waiter.done()) waiters.push(waiter);
    });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      // Worded as Postfix words it: real refusals name the address.
      const refusal = `<${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`;
      callback(options.reject ? Object.assign(new Error(refusal), { responseCode: 550 }) : null);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            header: (name) => {
              const line = parsed.headerLines.find((h) => h.key === name.toLowerCase());
              return line ? line.line.slice(line.line.indexOf(':') + 1).trim() : undefined;
            },
            parsed,
          });
          for (const waiter of [...waiters]) if (waiter.done()) waiters.splice(waiters.indexOf(waiter), 1);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // Browser files share the test server's SMTP port (SMTP_URL): one that finds it taken waits for
  // the file holding it to finish, so each receives only the mail its own actions send.
  const deadline = Date.now() + PORT_WAIT_MS;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor: (count, timeoutMs = 15_000) =>
      until(
        () => (received.length >= count ? received : undefined),
        timeoutMs,
        () => `expected ${count} message(s), got ${received.length}`,
      ),
    message: (to, subject, timeoutMs = 15_000) =>
      until(
        () =>
          received.find(
            (m) =>
              m.to.includes(to) &&
              (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)),
          ),
        timeoutMs,
        () =>
          `no message to ${to} with the subject ${String(subject)} (got: ${received.map((m) => m.subject).join('; ')})`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
