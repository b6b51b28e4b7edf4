import { createHash, randomBytes } from 'node:crypto';

/** A link token: 32 random bytes as hex (LINK_TOKEN_PATTERN in api/contract.ts). */
export function randomToken(): string {
  return randomBytes(32).toString('hex');
}

/** What is stored of a token that is only ever sent once (a confirmation link's). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
