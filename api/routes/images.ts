import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';

/** Uploads (mounted under /api/studio/images). */
export const imageUploadRoutes = new Hono<AppEnv>();

/** Serving uploaded images (mounted under /api/images). */
export const imageRoutes = new Hono<AppEnv>();
