// npm start — migrate, seed a new database, build the site if needed, serve site and API.
import fs from 'node:fs';
import path from 'node:path';
import { loadContent } from '../api/db/content.ts';
import { syncContent } from '../api/db/sync.ts';
import { createVerifier } from '../api/auth/create-verifier.ts';
import { isDemoApiKey } from '../api/contract.ts';
import { databaseLocation, describeDatabase } from '../api/db/database.ts';
import { prepareDatabase } from '../api/db/prepare.ts';
import { retarget } from '../api/db/queries/deliveries.ts';
import { purgeExpiredEvidence } from '../api/db/queries/moderation.ts';
import { ESCALATION } from '../api/db/queries/reports.ts';
import { createDeliveryWorker, createWebhookSender } from '../api/lib/deliveries.ts';
import { createRateLimiters } from '../api/middleware/rate-limit.ts';
import { READ_CACHE_MS } from '../api/middleware/read-cache.ts';
import { startServer } from '../api/server.ts';
import { buildSite, needsBuild } from './lib/build.ts';
import { loadEnv } from './lib/env.ts';
import { createPublisher } from './lib/publisher.ts';

const env = loadEnv();
const distDir = path.resolve(env.SITE_DIR);

const location = databaseLocation(env);
console.log(`Preparing the database: ${describeDatabase(location)} …`);
const { db, seeded } = await prepareDatabase(location, env.CONTENT_DIR);
if (seeded) console.log('Seeded a new database from content/.');

if (seeded || needsBuild(distDir, env.CONTENT_DIR)) {
  if (!seeded) {
    // content/ may have changed since the database was seeded: bring it in before building.
    const synced = await syncContent(db, loadContent(env.CONTENT_DIR), new Date());
    console.log(`Synced content/: ${synced.inserted.length} new, ${synced.updated.length} changed posts.`);
  }
  console.log('Building the site (this takes a little while on a fresh clone) …');
  const { durationMs } = await buildSite(distDir, { ...process.env, DATABASE_PATH: env.DATABASE_PATH });
  console.log(`Built the site in ${(durationMs / 1000).toFixed(1)} s.`);
}

const publisher = createPublisher({
  db,
  contentDir: env.CONTENT_DIR,
  siteDir: distDir,
  buildEnv: { ...process.env, DATABASE_PATH: env.DATABASE_PATH },
  hookUrl: env.PUBLISH_HOOK_URL,
  builtAt: fs.statSync(path.join(distDir, 'index.html')).mtime,
});

// Child-safety escalations (and later other messages) go out through one durable queue. Those
// still waiting go to the escalation URL configured now, or wait in the console without one.
const retargeted = await retarget(db, ESCALATION.purpose, env.SAFETY_ESCALATION_URL ?? null, new Date());
if (retargeted > 0) console.log(`${retargeted} escalation(s) from before this start are waiting to be sent.`);
const deliveries = createDeliveryWorker({ db, senders: { webhook: createWebhookSender() } });

const server = await startServer({
  db,
  distDir: () => distDir,
  host: env.HOST,
  port: env.PORT,
  deps: {
    verifyToken: createVerifier(env),
    publisher,
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
    // Anonymous reads are reused for a second; a write through this instance clears what it changed.
    readCacheMs: READ_CACHE_MS,
  },
  csp: {
    firebase: isDemoApiKey(env.PUBLIC_FIREBASE_API_KEY)
      ? null
      : { authDomain: env.PUBLIC_FIREBASE_AUTH_DOMAIN, emulatorHost: env.PUBLIC_FIREBASE_AUTH_EMULATOR_HOST },
    deletionForm: Boolean(env.PUBLIC_DELETION_FORM_ACCOUNT_ID && env.PUBLIC_DELETION_FORM_ID),
  },
});
// Scheduled posts go live within a minute of their time.
const scheduleTimer = setInterval(() => void publisher.checkSchedule().catch(console.error), 30_000);
scheduleTimer.unref();
deliveries.start();
if (!env.SAFETY_ESCALATION_URL) {
  console.log('SAFETY_ESCALATION_URL is not set: child-safety escalations wait in the moderation console.');
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

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}; finishing in-flight requests …`);
    clearInterval(scheduleTimer);
    clearInterval(purgeTimer);
    // The worker finishes a send in progress before the database closes; what is left waits in its table.
    void deliveries
      .stop()
      .then(() => server.close())
      .then(() => process.exit(0));
  });
}
