import fs from 'node:fs';
import dotenv from 'dotenv';
import { type Env, EnvError, parseEnv } from '../../api/env.ts';

/** Reads .env (when present) under the real environment, then validates; exits on a bad value. */
export function loadEnv(): Env {
  if (fs.existsSync('.env')) dotenv.config({ path: '.env', quiet: true });
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
