import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';

/** A post's preview as the real post page (mounted under /api/studio/posts). */
export const studioPreviewRoutes = new Hono<AppEnv>();
