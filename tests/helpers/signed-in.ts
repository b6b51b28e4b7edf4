// Unit tests of staff screens sign in through the real auth store (src/stores/auth.ts), each as a
// person of their own, so the page-wide stores of one test never answer another's.
import { $auth } from '../../src/stores/auth.ts';

let people = 0;

/** Signs in a new staff member with `role` (Ari Admin, ari@example.com); answers their uid. */
export function signInAs(role: string): string {
  const uid = `staff-${(people += 1)}`;
  $auth.set({
    user: {
      uid,
      displayName: 'Ari Admin',
      email: 'ari@example.com',
      photoURL: null,
      emailVerified: true,
      isAnonymous: false,
    },
    profile: {
      firebase_uid: uid,
      display_name: 'Ari Admin',
      email: 'ari@example.com',
      photo_url: null,
      role,
      user_type: ['buyer'],
      created_at: '2026-11-01T00:00:00Z',
      updated_at: '2026-11-01T00:00:00Z',
      suspension: null,
    },
    loading: false,
    demoMode: false,
  });
  return uid;
}
