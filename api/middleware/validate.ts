import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { UNSTORABLE_MESSAGE, unstorableText } from '../lib/storable-text.ts';
import { preloadJsonBody } from './node-body.ts';

/**
 * zod validation at the API edge. A failure answers 400 with one sentence naming the field and
 * the rule, e.g. `{ "error": "limit: must be an integer from 1 to 50" }`. Text the databases
 * cannot store (api/lib/storable-text.ts) is refused here too, for every validated input.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  const validator = zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const message = result.error.issues
        .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
        .join('; ');
      return c.json({ error: message }, 400);
    }
    const field = unstorableText(result.data);
    if (field !== null) return c.json({ error: `${field}: ${UNSTORABLE_MESSAGE}` }, 400);
  });
  if (target !== 'json') return validator;
  // A served request's JSON body comes straight from the Node request (api/middleware/node-body.ts).
  const fromNode: typeof validator = (c, next) => {
    preloadJsonBody(c);
    return validator(c, next);
  };
  return fromNode;
}
