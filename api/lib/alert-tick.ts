import type { DB } from '../db/database.ts';
import { sendDueAlerts } from '../db/queries/alerts.ts';
import type { DeliveryWorker } from './deliveries.ts';
import type { MailSettings } from './emails.ts';

// The alert tick (docs/product.md, "Favourites and alerts"): every instance looks for due alerts
// every ALERT_TICK_MS and queues their emails; the claims in sendDueAlerts make sure each alert is
// emailed once. Time comes from the app's clock, so tests move it instead of waiting.

/** How often due alerts are looked for: an instant search's first match goes out within this. */
export const ALERT_TICK_MS = 10_000;

export interface AlertTicker {
  /** One tick now: answers how many emails it queued. */
  tick: () => Promise<number>;
  start: () => void;
  /** Stops ticking and waits for a tick in progress. */
  stop: () => Promise<void>;
}

export function createAlertTicker(options: {
  db: DB;
  mail: MailSettings;
  now: () => Date;
  deliveries?: Pick<DeliveryWorker, 'poke'>;
  intervalMs?: number;
  log?: (message: string) => void;
}): AlertTicker {
  const { db, mail, now, deliveries } = options;
  const log = options.log ?? ((message: string) => console.error(message));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  const tick = (): Promise<number> => {
    // One tick at a time in this instance; the database keeps instances apart.
    running ??= sendDueAlerts(db, mail, now())
      .then((queued) => {
        if (queued > 0) deliveries?.poke();
        return queued;
      })
      .catch((error: unknown) => {
        log(`Alert tick failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    tick,
    start: () => {
      if (timer) return;
      timer = setInterval(() => void tick(), options.intervalMs ?? ALERT_TICK_MS);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
