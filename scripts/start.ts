// npm start — migrate, seed a new database, publish the site if it has no live build (or one older
// than its sources), serve the live release's site and the API.
import path from 'node:path';
import { createAccounts, createVerifier } from '../api/auth/create-verifier.ts';
import { isDemoApiKey } from '../api/contract.ts';
import { databaseLocation, describeDatabase } from '../api/db/database.ts';
import { prepareDatabase } from '../api/db/prepare.ts';
import { retarget } from '../api/db/queries/deliveries.ts';
import { rescreenStaleListings } from '../api/db/queries/listings.ts';
import { purgeExpiredEvidence } from '../api/db/queries/moderation.ts';
import { liveRelease } from '../api/db/queries/releases.ts';
import { ESCALATION } from '../api/db/queries/deliveries.ts';
import { createAlertTicker } from '../api/lib/alert-tick.ts';
import { createDeliveryWorker, createWebhookSender } from '../api/lib/deliveries.ts';
import type { MailSettings } from '../api/lib/emails.ts';
import { createEmailSender, EMAIL_KIND } from '../api/lib/mail.ts';
import { liveReleaseSource } from '../api/lib/live-release.ts';
import { createThreadHub } from '../api/lib/thread-events.ts';
import { isPostgresUrl } from '../api/db/dialect.ts';
import { createRecallRefresher } from '../api/lib/recall-refresh.ts';
import { nodeSupportWarning } from '../api/lib/node-support.ts';
import { createPhotoQueue } from '../api/lib/photo-queue.ts';
import { createRateLimiters } from '../api/middleware/rate-limit.ts';
import { READ_CACHE_MS, readCache } from '../api/middleware/read-cache.ts';
import { requestPublish } from '../api/routes/listings.ts';
import { createPhotoAnalyser } from '../api/screening/photos/pool.ts';
import { startServer } from '../api/server.ts';
import { needsBuild } from './lib/build.ts';
import { loadEnv } from './lib/env.ts';
import { publisherFromEnv } from './lib/publisher.ts';

const env = loadEnv();
const outdatedNode = nodeSupportWarning(process.version, new Date());
if (outdatedNode) console.warn(outdatedNode);
const siteDir = path.resolve(env.SITE_DIR);

const location = databaseLocation(env);
console.log(`Preparing the database: ${describeDatabase(location)} …`);
// Without RECALLS_URL a database with no recall data gets the sample feed: npm start needs no network.
const { db, seeded } = await prepareDatabase(location, env.CONTENT_DIR, { sampleRecalls: !env.RECALLS_URL });
if (seeded) console.log('Seeded a new database from content/.');
// Listings screened under older rules are screened again, so a change of rules reaches them all.
const rescreened = await rescreenStaleListings(db, new Date());
if (rescreened > 0) console.log(`Screened ${rescreened} listing(s) again under the current rules.`);

// The server's view of the live release, told by this instance's publisher when it switches.
const release = liveReleaseSource(db);
const publisher = publisherFromEnv(db, env, { onLive: release.refresh });
const live = await liveRelease(db);
if (!live || needsBuild(path.join(siteDir, live.folder), env.CONTENT_DIR)) {
  console.log(
    live
      ? 'The live build is missing or older than its sources: publishing again …'
      : 'Publishing the site for the first time (this takes a little while on a fresh clone) …',
  );
  const run = await publisher.finished((await publisher.request('start')).id);
  if (run.state !== 'succeeded' && !live) {
    console.error('The first publish failed, so there is no site to serve.');
    process.exit(1);
  }
}

// Child-safety escalations (and later other messages) go out through one durable queue. Those
// still waiting go to the escalation URL configured now, or wait in the console without one.
const retargeted = await retarget(db, ESCALATION.purpose, env.SAFETY_ESCALATION_URL ?? null, new Date());
if (retargeted > 0) console.log(`${retargeted} escalation(s) from before this start are waiting to be sent.`);
// Every email goes through the same queue: to SMTP_URL, or kept in the outbox without one.
const deliveries = createDeliveryWorker({
  db,
  senders: {
    webhook: createWebhookSender(),
    [EMAIL_KIND]: createEmailSender({ smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM }),
  },
});

// Listing photos are analysed off the request path, in worker threads, from a queue in the
// database that every instance shares (docs/product.md, "Listing screening").
const photoQueue = createPhotoQueue({
  db,
  analyser: createPhotoAnalyser({ workers: env.PHOTO_WORKERS }),
  allowedHosts: env.LISTING_PHOTO_HOSTS,
  concurrency: env.PHOTO_WORKERS,
  onShownChanged: (n) => requestPublish(publisher, `${n} listing(s) cleared after their photos were checked`),
});

const mail: MailSettings = {
  siteName: env.PUBLIC_SITE_NAME,
  siteUrl: env.PUBLIC_SITE_URL,
  privacyEmail: env.PUBLIC_PRIVACY_EMAIL,
  transport: env.SMTP_URL ? 'smtp' : 'outbox',
};

const server = await startServer({
  db,
  siteDir,
  host: env.HOST,
  port: env.PORT,
  deps: {
    verifyToken: createVerifier(env),
    accounts: createAccounts(env),
    publisher,
    release,
    ...createRateLimiters(db, {
      comments: env.RATE_LIMIT_COMMENTS_PER_MINUTE,
      writes: env.RATE_LIMIT_WRITES_PER_MINUTE,
      reports: env.RATE_LIMIT_REPORTS_PER_MINUTE,
    }),
    safety: {
      holdFirstComment: env.MODERATION_HOLD_FIRST,
      escalationUrl: env.SAFETY_ESCALATION_URL ?? null,
      siteUrl: env.PUBLIC_SITE_URL,
    },
    deliveries,
    photoQueue,
    listings: { token: env.LISTINGS_TOKEN ?? null },
    trustedProxies: new Set(env.TRUSTED_PROXIES),
    mail,
    // Anonymous reads are reused for a second; a write through this instance clears what it changed.
    readCache: readCache({ ttlMs: READ_CACHE_MS }),
    // Open threads' streams; on PostgreSQL a connection of their own LISTENs for other instances' changes.
    threads: createThreadHub({ db, listenUrl: isPostgresUrl(location) ? location : null }),
  },
  csp: {
    firebase: isDemoApiKey(env.PUBLIC_FIREBASE_API_KEY)
      ? null
      : { authDomain: env.PUBLIC_FIREBASE_AUTH_DOMAIN, emulatorHost: env.PUBLIC_FIREBASE_AUTH_EMULATOR_HOST },
    deletionForm: Boolean(env.PUBLIC_DELETION_FORM_ACCOUNT_ID && env.PUBLIC_DELETION_FORM_ID),
  },
});
// Scheduled posts go live (pages and API together) within a tick (30 s) of their time plus a build.
// Every instance ticks; only the one holding the publish lock acts. A tick also picks up runs that
// a stopped instance left queued. PUBLISH_TICK_SECONDS shortens it (the studio's end-to-end test).
void publisher.tick();
// `npm run publish` (and the imports) hand their runs to this warm publisher while it is up.
void publisher.keepWarm();
const scheduleTimer = setInterval(() => void publisher.tick(), env.PUBLISH_TICK_SECONDS * 1000);
scheduleTimer.unref();
deliveries.start();
// Alerts (saved searches, price drops, recalls of saved items) become emails on every instance's
// tick, by the app's clock; the database makes sure each is emailed once.
const alertTicker = createAlertTicker({ db, mail, now: () => new Date(), deliveries });
alertTicker.start();
photoQueue.start();
if (!env.LISTINGS_TOKEN) {
  console.log('LISTINGS_TOKEN is not set: listings come in only with npm run items:import.');
}
if (!env.SMTP_URL) {
  console.log('SMTP_URL is not set: emails are kept in the outbox (/admin/outbox) and logged, not sent.');
}
if (!env.SAFETY_ESCALATION_URL) {
  console.log('SAFETY_ESCALATION_URL is not set: child-safety escalations wait in the moderation console.');
}
// The recall database is refreshed from RECALLS_URL once a day (one instance imports; a failed try
// is retried with a growing wait), and a refresh that changed data publishes.
const recallRefresh = env.RECALLS_URL ? createRecallRefresher({ db, url: env.RECALLS_URL, publisher }) : null;
recallRefresh?.start();
if (!env.RECALLS_URL) {
  console.log('RECALLS_URL is not set: recall data changes only with npm run recalls:import.');
}
// Child-safety evidence is blanked when its year is over: checked at start and every hour.
const purge = () =>
  void purgeExpiredEvidence(db, new Date())
    .then((n) => n > 0 && console.log(`Purged ${n} comment(s) of child-safety evidence older than a year.`))
    .catch(console.error);
purge();
const purgeTimer = setInterval(purge, 60 * 60_000);
purgeTimer.unref();
if (isDemoApiKey(env.PUBLIC_FIREBASE_API_KEY))
  console.log('Sign-in runs in demo mode (no Firebase project configured).');
console.log(`Nestling is running at ${server.url}`);

/** The longest a stop waits for in-flight requests and workers (a load balancer's grace is usually 30 s). */
const STOP_TIMEOUT_MS = 25_000;
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}; finishing in-flight requests …`);
    clearInterval(scheduleTimer);
    clearInterval(purgeTimer);
    // The worker finishes a send in progress before the database closes; what is left waits in its table.
    const workersStopped = Promise.all([
      deliveries.stop(),
      alertTicker.stop(),
      photoQueue.stop(),
      recallRefresh?.stop(),
      publisher.close(),
    ]);
    // At once, beside the workers: not ready, no new connections, in-flight requests finish, streams
    // end; the database closes when both are done (docs/deploy.md, "Health checks and stopping").
    void server.close({ after: workersStopped }).then(() => process.exit(0));
    // A request or a worker that never ends must not keep a stopping instance from exiting.
    setTimeout(() => {
      console.error(`Still stopping after ${STOP_TIMEOUT_MS / 1000} s; exiting now.`);
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
  });
}
