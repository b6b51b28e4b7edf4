// Parents for end-to-end tests on the emulator-backed server: a real emulator account with a
// password and a name, signed in once through the API (which creates their profile).
import { expect, inject } from 'vitest';
import { createEmulatorUser } from '../../scripts/lib/auth-emulator.ts';

export interface Person {
  name: string;
  email: string;
  token: string;
}

/** A new parent named `<first> <tag>`, with the email `<first>-<tag>@example.com`. */
export async function signedUpParent(first: string, password: string): Promise<Person> {
  const tag = crypto.randomUUID().slice(0, 6);
  const name = `${first} ${tag}`;
  const user = await createEmulatorUser(inject('authEmulatorHost'), {
    email: `${first.toLowerCase()}-${tag}@example.com`,
    password,
    displayName: name,
  });
  const res = await fetch(`${inject('authBaseURL')}/api/profile`, {
    headers: { Authorization: `Bearer ${user.idToken}` },
  });
  expect(res.status).toBe(200);
  return { name, email: user.email, token: user.idToken };
}
