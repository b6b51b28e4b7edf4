import { Hono } from 'hono';
import type { AccountErased, AccountExport } from '../contract.ts';
import { eraseAccount, exportAccount } from '../db/queries/account.ts';
import { receiveDeletionRequest } from '../db/queries/deletion-requests.ts';
import { requireUser } from '../middleware/auth.ts';
import { limitPerAddress, limitPerUser, tooQuickly } from '../middleware/rate-limit.ts';
import { validate } from '../middleware/validate.ts';
import type { AppEnv } from '../types.ts';
import { accountDeleteBody, deletionRequestBody } from './schemas.ts';

/**
 * The parent's own account (docs/product.md, "Your account"): their data as one file, erasure in
 * seconds, and the deletion form for those who cannot sign in.
 */
export const accountRoutes = new Hono<AppEnv>()
  .post(
    '/deletion-requests',
    limitPerAddress('deletion', tooQuickly('requests')),
    validate('json', deletionRequestBody),
    async (c) => {
      const { db, now, mail, deliveries } = c.get('deps');
      if (await receiveDeletionRequest(db, c.req.valid('json'), mail, now())) deliveries?.poke();
      c.set('changed', []);
      return c.json({ received: true }, 201);
    },
  )
  .get('/export', requireUser, async (c) => {
    const { db, now, mail } = c.get('deps');
    const at = now();
    const data = await exportAccount(db, c.get('user').uid, mail.siteUrl, at);
    c.header(
      'Content-Disposition',
      `attachment; filename="nestling-data-${at.toISOString().slice(0, 10)}.json"`,
    );
    c.header('Cache-Control', 'no-store');
    return c.json<AccountExport>(data);
  })
  .delete(
    '/',
    requireUser,
    limitPerUser('account-delete', tooQuickly('attempts')),
    validate('json', accountDeleteBody),
    async (c) => {
      const { db, now, mail, accounts, deliveries } = c.get('deps');
      const email = c.get('user').email || c.get('profile').email;
      if (!email) {
        return c.json(
          {
            error: `This account has no email address to confirm with. Write to ${mail.privacyEmail} and we will delete it.`,
          },
          400,
        );
      }
      if (c.req.valid('json').confirmEmail.toLowerCase() !== email.toLowerCase()) {
        return c.json(
          { error: "confirmEmail: that is not this account's email address. Type it exactly to confirm." },
          400,
        );
      }
      // The sign-in account goes first: from then on no token of theirs is accepted.
      await accounts.deleteUser(c.get('user').uid);
      await eraseAccount(db, { uid: c.get('user').uid, emails: [email], admin: null }, mail, now());
      deliveries?.poke();
      return c.json<AccountErased>({ erased: true, email });
    },
  );
