/// <reference types="astro/client" />

// The public environment the islands and pages read (validated at start-up by api/env.ts).
interface ImportMetaEnv {
  readonly PUBLIC_SITE_NAME?: string;
  readonly PUBLIC_SITE_URL?: string;
  readonly PUBLIC_MARKETPLACE_URL?: string;
  readonly PUBLIC_FIREBASE_API_KEY?: string;
  readonly PUBLIC_FIREBASE_AUTH_DOMAIN?: string;
  readonly PUBLIC_FIREBASE_PROJECT_ID?: string;
  readonly PUBLIC_FIREBASE_APP_ID?: string;
  readonly PUBLIC_FIREBASE_AUTH_EMULATOR_HOST?: string;
  readonly PUBLIC_DELETION_FORM_ACCOUNT_ID?: string;
  readonly PUBLIC_DELETION_FORM_ID?: string;
  readonly PUBLIC_PRIVACY_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
