import fs from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { PREVIEW_TEMPLATE_PATH } from '../contract/preview.ts';
import { canPublishPosts, canWritePosts } from '../contract/studio.ts';
import { findPostHead, findStudioPost } from '../db/queries/studio-posts.ts';
import { sanitizeHtml } from '../lib/html.ts';
import { fillPreview, PreviewTemplateError } from '../lib/preview.ts';
import { requireUser } from '../middleware/auth.ts';
import { validate } from '../middleware/validate.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { postIdParam } from './schemas.ts';

const NOT_PUBLISHED_YET =
  'The preview needs the site to have been published once with this version: publish, then preview again.';

/** The live build's preview template; null when there is none (nothing published, or an older build). */
async function liveTemplate(deps: AppDeps): Promise<string | null> {
  if (!deps.siteDir) return null;
  const live = await deps.release.current();
  if (!live) return null;
  try {
    return await fs.readFile(path.join(deps.siteDir, live.folder, PREVIEW_TEMPLATE_PATH), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A post's preview (mounted under /api/studio/posts; docs/product.md, "The studio"): its latest
 * revision in the live build's real post page, for its author and for editors and admins. Never
 * kept by a browser or shown to search engines.
 */
export const studioPreviewRoutes = new Hono<AppEnv>().get(
  '/:postId/preview',
  validate('param', postIdParam),
  requireUser,
  async (c) => {
    const deps = c.get('deps');
    const { db, now } = deps;
    const profile = c.get('profile');
    if (!canWritePosts(profile.role)) {
      return c.json({ error: 'Only authors, editors and admins may preview posts.' }, 403);
    }
    const { postId } = c.req.valid('param');
    const head = await findPostHead(db, postId);
    if (!head) return c.json({ error: `There is no post ${postId}.` }, 404);
    if (!canPublishPosts(profile.role) && head.authorUid !== profile.firebase_uid) {
      return c.json({ error: 'Authors may preview only their own posts.' }, 403);
    }
    const template = await liveTemplate(deps);
    if (template === null) return c.json({ error: NOT_PUBLISHED_YET }, 503);
    const post = await findStudioPost(db, postId, now());
    if (!post) return c.json({ error: `There is no post ${postId}.` }, 404);
    let html: string;
    try {
      html = fillPreview(template, {
        postId,
        title: post.title,
        slug: post.slug,
        excerpt: post.excerpt,
        authorName: post.authorName,
        featuredImageUrl: post.featuredImageUrl,
        featuredImageAlt: post.featuredImageAlt,
        // Sanitized again on the way out, as the post page does.
        html: sanitizeHtml(post.html),
        readingTimeMinutes: post.readingTimeMinutes,
        // Dated as readers will see it: its publish time, or now for a post not yet published.
        date: post.publishAt ?? now().toISOString(),
        categories: post.categories,
      });
    } catch (error) {
      if (!(error instanceof PreviewTemplateError)) throw error;
      console.error(`Preview template of the live build: ${error.message}`);
      return c.json({ error: NOT_PUBLISHED_YET }, 503);
    }
    c.header('X-Robots-Tag', 'noindex');
    c.header('Cache-Control', 'private, no-store');
    return c.html(html);
  },
);
