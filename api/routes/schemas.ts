import { z } from 'zod';

export const MAX_LIMIT = 50;

/** `?limit=` on list endpoints: an integer from 1 to 50. */
export function limitQuery(defaultLimit: number) {
  return z.object({
    limit: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return defaultLimit;
        const n = Number(v);
        if (!/^\d+$/.test(v) || !Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
          ctx.addIssue({ code: 'custom', message: `must be an integer from 1 to ${MAX_LIMIT}` });
          return z.NEVER;
        }
        return n;
      }),
  });
}

// Any text of a sane length may be looked up; one that matches no post is simply a 404.
export const slugParam = z.object({
  slug: z.string().min(1).max(200, 'must be at most 200 characters'),
});

/** A numeric id in the path, e.g. `:postId`: a positive integer. */
export function idParam<Name extends string>(name: Name) {
  return z.object({
    [name]: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, 'must be a positive integer')
      .transform(Number),
  } as Record<Name, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>>);
}
