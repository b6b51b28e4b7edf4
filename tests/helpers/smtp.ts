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
  close: () => Promise<void>;
}

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
  const waiters: { count: number; resolve: (mails: ReceivedMail[]) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(options.reject ? Object.assign(new Error('No such mailbox'), { responseCode: 550 }) : null);
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
          for (const waiter of waiters.filter((w) => received.length >= w.count)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(received);
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor: (count, timeoutMs = 15_000) =>
      received.length >= count
        ? Promise.resolve(received)
        : new Promise((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`expected ${count} message(s), got ${received.length}`)),
              timeoutMs,
            );
            waiters.push({
              count,
              resolve: (mails) => {
                clearTimeout(timer);
                resolve(mails);
              },
            });
          }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
