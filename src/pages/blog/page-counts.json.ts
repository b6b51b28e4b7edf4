// How many pages each blog list has, as this build wrote them, so the server can send an old
// /blog?category=&page= address to its static page (blogQueryPath in api/contract/blog-paths.ts).
import type { APIRoute } from 'astro';
import { sitePlan } from '../../lib/site-plan.ts';

export const GET: APIRoute = async () => Response.json((await sitePlan()).counts);
