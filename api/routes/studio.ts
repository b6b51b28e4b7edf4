import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';

/** The studio's posts (mounted under /api/studio). */
export const studioRoutes = new Hono<AppEnv>();
