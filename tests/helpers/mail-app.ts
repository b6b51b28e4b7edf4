// The API test app with the deliveries worker sending email to a real SMTP server in this process,
// for tests that follow a message from the action that queues it to the mailbox.
import { createDeliveryWorker } from '../../api/lib/deliveries.ts';
import { createEmailSender, EMAIL_KIND } from '../../api/lib/mail.ts';
import type { AppDeps } from '../../api/types.ts';
import { createCommunityApp } from './parents.ts';
import { startSmtpServer } from './smtp.ts';
import { TEST_NOW } from './test-db.ts';

/** The community app (emulator sign-in and accounts), its worker and SMTP server; `stop` ends both. */
export async function createMailApp(options: { now?: () => Date; deps?: Partial<AppDeps> } = {}) {
  const now = options.now ?? (() => TEST_NOW);
  const smtp = await startSmtpServer();
  const created = await createCommunityApp({
    now,
    // The worker is made below, over the app's database; the app pokes it after queueing mail.
    deliveries: { poke: () => worker.poke() },
    ...options.deps,
  });
  const worker = createDeliveryWorker({
    db: created.db,
    senders: {
      [EMAIL_KIND]: createEmailSender({ smtpUrl: smtp.url, from: 'Nestling <no-reply@nestling.test>' }),
    },
    now,
    log: () => {},
  });
  worker.start();
  return {
    ...created,
    smtp,
    worker,
    stop: async () => {
      await worker.stop();
      await smtp.close();
    },
  };
}
