import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  type DeletionRequest,
  type DeletionRequestList,
  isAdmin,
  type Outbox,
  type PersonWithRole,
  type PublishRun,
  type PublishStatus,
  type RolledBack,
  type StaffList,
  type UserProfile,
} from '../contract.ts';
import { eraseAccount } from '../db/queries/account.ts';
import {
  closeAsNoAccount,
  findDeletionRequest,
  findOpenDeletionRequest,
  listDeletionRequests,
} from '../db/queries/deletion-requests.ts';
import { listOutbox } from '../db/queries/mail.ts';
import {
  changeRoleByEmail,
  findProfilesByEmail,
  findUidByEmail,
  listStaff,
  toPerson,
} from '../db/queries/profiles.ts';
import { publishStatus } from '../db/queries/releases.ts';
import { requireUser } from '../middleware/auth.ts';
import { limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppDeps, AppEnv, UserEnv } from '../types.ts';
import { deletionRequestIdParam, outboxQuery, personQuery, roleChangeBody, rollbackBody } from './schemas.ts';

/** After requireUser: admins only; anyone else gets a 403 that says what for. */
const requireAdmin = (what: string) =>
  createMiddleware<UserEnv>(async (c, next) => {
    if (!isAdmin(c.get('profile').role)) {
      return c.json(
        { error: `Only admins may ${what}. Ask an admin to run npm run user:role for you.` },
        403,
      );
    }
    await next();
  });

const publishing = requireAdmin('publish');
const deletions = [requireUser, requireAdmin('handle deletion requests')] as const;
const deletionWrite = [...deletions, limitPerUser('deletion-admin', tooQuickly('actions'))] as const;

const people = [requireUser, requireAdmin('change roles')] as const;
const NO_ONE = { error: 'No one has signed in with that email yet.' } as const;

const UNAVAILABLE = { error: 'Publishing is not available in this process' } as const;

/** The open request (or a 404/409), the account that owns its address if any, and the admin. */
async function openRequest(deps: AppDeps, profile: UserProfile, requestId: number) {
  const request = await findOpenDeletionRequest(deps.db, requestId);
  // Firebase's account, else a profile that signed in here with the address.
  const owner =
    (await deps.accounts.findByEmail(request.email)) ?? (await findUidByEmail(deps.db, request.email));
  return { request, owner, admin: { uid: profile.firebase_uid, name: profile.display_name } };
}

/**
 * Admins' work (mounted under /api/admin): publishing (docs/product.md, "Publishing": POST queues a
 * run or joins the queued one, GET reports the runs and releases of every instance, rollback goes
 * back to the previous release), deletion requests from the form (docs/product.md, "Deleting your account"),
 * the mail log, and people's roles (docs/product.md, "Roles").
 */
export const adminRoutes = new Hono<AppEnv>()
  .get('/publish', requireUser, publishing, async (c) =>
    c.json<PublishStatus>(await publishStatus(c.get('deps').db)),
  )
  .post('/publish', requireUser, publishing, async (c) => {
    const { publisher } = c.get('deps');
    if (!publisher) return c.json(UNAVAILABLE, 503);
    const run = await publisher.request(`admin (${c.get('profile').email || c.get('profile').firebase_uid})`);
    // Nothing readers see changes until the run's release goes live.
    c.set('changed', []);
    return c.json<PublishRun>(run, 202);
  })
  .post('/publish/rollback', requireUser, publishing, validate('json', rollbackBody), async (c) => {
    const { publisher } = c.get('deps');
    if (!publisher) return c.json(UNAVAILABLE, 503);
    const profile = c.get('profile');
    const done = await publisher.rollback(
      { uid: profile.firebase_uid, name: profile.display_name },
      c.req.valid('json').reason,
    );
    return c.json<RolledBack>(done);
  })
  .get('/deletion-requests', ...deletions, async (c) => {
    const { db, now } = c.get('deps');
    return c.json<DeletionRequestList>(await listDeletionRequests(db, now()));
  })
  .post(
    '/deletion-requests/:requestId/erase',
    validate('param', deletionRequestIdParam),
    ...deletionWrite,
    async (c) => {
      const deps = c.get('deps');
      const { requestId } = c.req.valid('param');
      const { request, owner, admin } = await openRequest(deps, c.get('profile'), requestId);
      if (!owner) {
        return c.json(
          { error: 'No account uses this address. Close the request as "no account found" instead.' },
          404,
        );
      }
      await deps.accounts.deleteUser(owner);
      await eraseAccount(deps.db, { uid: owner, emails: [request.email], admin }, deps.mail, deps.now());
      deps.deliveries?.poke();
      return c.json<DeletionRequest>((await findDeletionRequest(deps.db, requestId, deps.now()))!);
    },
  )
  .post(
    '/deletion-requests/:requestId/close',
    validate('param', deletionRequestIdParam),
    ...deletionWrite,
    async (c) => {
      const deps = c.get('deps');
      const { requestId } = c.req.valid('param');
      const { owner, admin } = await openRequest(deps, c.get('profile'), requestId);
      // "No account found" must be true: an account that exists is erased instead.
      if (owner) return c.json({ error: 'An account uses this address: erase it instead.' }, 409);
      const closed = await closeAsNoAccount(deps.db, { id: requestId, actor: admin }, deps.mail, deps.now());
      deps.deliveries?.poke();
      return c.json<DeletionRequest>(closed);
    },
  )
  .get(
    '/outbox',
    requireUser,
    requireAdmin('read the mail log'),
    validate('query', outboxQuery),
    async (c) => {
      const { db, mail } = c.get('deps');
      const { limit, before } = c.req.valid('query');
      const page = await listOutbox(db, { limit, before: before ?? null });
      if (page.next !== null)
        c.header('Link', `</api/admin/outbox?limit=${limit}&before=${page.next}>; rel="next"`);
      return c.json<Outbox>({ transport: mail.transport, emails: page.emails });
    },
  )
  .get('/people', ...people, validate('query', personQuery), async (c) => {
    const { db } = c.get('deps');
    const [found] = await findProfilesByEmail(db, c.req.valid('query').email);
    if (!found) return c.json(NO_ONE, 404);
    return c.json<PersonWithRole>(toPerson(found, c.get('user').uid));
  })
  .get('/staff', ...people, async (c) =>
    c.json<StaffList>(await listStaff(c.get('deps').db, c.get('user').uid)),
  )
  .put(
    '/people/role',
    ...people,
    limitPerUser('roles', tooQuickly('role changes')),
    validate('json', roleChangeBody),
    async (c) => {
      const { db, now } = c.get('deps');
      const { email, role } = c.req.valid('json');
      const me = c.get('profile');
      const found = await findProfilesByEmail(db, email);
      if (found.length === 0) return c.json(NO_ONE, 404);
      // So the last admin can never lock everyone out (docs/product.md, "Roles").
      if (found.some((p) => p.firebase_uid === me.firebase_uid)) {
        return c.json({ error: 'You cannot change your own role: ask another admin.' }, 400);
      }
      const [changed] = await changeRoleByEmail(
        db,
        { email, role, actor: { uid: me.firebase_uid, name: me.display_name } },
        now(),
      );
      if (!changed) return c.json(NO_ONE, 404);
      // Roles show in no cached answer (api/middleware/read-cache.ts).
      c.set('changed', []);
      return c.json<PersonWithRole>(toPerson(changed, me.firebase_uid));
    },
  );
