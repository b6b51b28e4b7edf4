// The wire contract: the shapes the API answers with, the limits it enforces and the rules both
// sides of the wire apply. It imports nothing, so islands can use it without pulling in server
// code; the API's routes answer with these types and the database layer maps rows to them.
// The product rules behind the numbers are written down in docs/product.md.

// ---- Limits ----------------------------------------------------------------------------------

/** A comment or reply, after trimming (docs/product.md, "Comments"). */
export const COMMENT_MAX_LENGTH = 2000;
/** Comments a signed-in parent may post a minute (the product rule; configurable per server). */
export const COMMENTS_PER_MINUTE = 5;
/** Other writes (likes, views, deletion requests) per parent or address a minute. */
export const WRITES_PER_MINUTE = 600;
/** Largest request body the API reads. */
export const MAX_BODY_BYTES = 16 * 1024;
/** `?limit=` on list endpoints. */
export const LIST_LIMIT_MAX = 50;
export const FEATURED_ITEMS_DEFAULT = 4;
export const COMMUNITY_FEED_DEFAULT = 3;
/** Top-level comments in one page of a thread. */
export const THREAD_PAGE_DEFAULT = 50;
export const THREAD_PAGE_MAX = 100;

// ---- Items -----------------------------------------------------------------------------------

/** The Item shape of the marketplace listing. */
export interface Item {
  itemId: string;
  itemName: string;
  category: string;
  listingPrice: string;
  imageUrl: string | null;
  condition: string | null;
  brand: string | null;
  ageGroup: string;
}

/** Category key to number of items; categories without items are absent. */
export type CategoryCounts = Record<string, number>;

// ---- Blog ------------------------------------------------------------------------------------

export type PostKind = 'article' | 'discussion';

/** A blog post, as GET /api/blog/posts/:slug answers it. */
export interface BlogPost {
  postId: number;
  slug: string;
  title: string;
  excerpt: string;
  /** Sanitized HTML. */
  content: string;
  featuredImageUrl: string | null;
  authorName: string;
  publishedAt: string | null;
  createdAt: string;
  viewCount: number;
  likeCount: number;
  commentCount: number;
  readingTimeMinutes: number;
  isFeatured: boolean;
  relatedCategories: string[];
}

/** What a card or list needs: a post without its body. */
export type PostSummary = Omit<BlogPost, 'content'>;

export interface BlogCategory {
  categoryId: number;
  slug: string;
  categoryName: string;
  colorHex: string | null;
}

/** An entry of the home page's community feed. */
export interface CommunityEntry {
  id: number;
  type: PostKind;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  featuredImageUrl: string | null;
  viewCount: number;
  likeCount: number;
  commentCount: number;
}

export interface CommunityCount {
  total: number;
}

/** The numbers a post page shows, live: GET /api/blog/posts/:slug/stats. */
export interface PostStats {
  postId: number;
  viewCount: number;
  likeCount: number;
  commentCount: number;
}

export interface ViewRecorded {
  /** The count including views still waiting to be written (docs/product.md, "Views"). */
  viewCount: number;
}

// ---- Community -------------------------------------------------------------------------------

export interface LikeStatus {
  liked: boolean;
  likeCount: number;
}

/** A reply: a comment without reply_count, parent_comment_id and replies. */
export interface Reply {
  comment_id: number;
  content: string;
  author_name: string;
  author_avatar_url: string | null;
  created_at: string;
  like_count: number;
}

/** A top-level comment with its replies (oldest first). */
export interface Comment extends Reply {
  reply_count: number;
  parent_comment_id: null;
  replies: Reply[];
}

export interface NewCommentBody {
  content: string;
  parentCommentId: number | null;
}

/** What POST /api/blog/posts/:postId/comments answers: the new comment and the post's new count. */
export interface CommentPosted {
  comment: Reply;
  commentCount: number;
}

// ---- Profiles and roles ----------------------------------------------------------------------

export const ROLES = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Moderators and admins review reports and comments. */
export function canModerate(role: string | null | undefined): boolean {
  return role === 'moderator' || role === 'admin';
}

/** Admins publish and handle deletion requests. */
export function isAdmin(role: string | null | undefined): boolean {
  return role === 'admin';
}

/** The users_profile row as the API answers it (GET /api/profile). */
export interface UserProfile {
  firebase_uid: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  /** 'admin', 'moderator' or anything else (a plain member). */
  role: string;
  /** 'buyer' and/or 'seller'. */
  user_type: string[];
  created_at: string;
  updated_at: string;
}

/** The basic-profile name rule: the provider's name, else the email's local part, else 'User'. */
export function basicDisplayName(identity: { name?: string | null; email?: string | null }): string {
  const name = identity.name?.trim();
  if (name) return name;
  const local = identity.email?.split('@')[0]?.trim();
  return local || 'User';
}

// ---- Demo mode -------------------------------------------------------------------------------

/** A Firebase web API key beginning with "demo-" (or none) means sign-in is not configured. */
export function isDemoApiKey(apiKey: string | null | undefined): boolean {
  return !apiKey || apiKey.startsWith('demo-');
}

/** The bearer token the API accepts, only in demo mode, for the demo parent. */
export const DEMO_TOKEN = 'nestling-demo-token';

export const DEMO_USER = {
  uid: 'demo-user',
  email: 'demo.parent@nestling.example',
  name: 'Demo Parent',
} as const;

// ---- Account deletion requests ---------------------------------------------------------------

export const DELETION_REASON_MAX = 200;
export const DELETION_INFO_MAX = 2000;

export interface DeletionRequestBody {
  email: string;
  reason: string | null;
  additionalInfo: string | null;
  confirmed: true;
}

// ---- Publishing ------------------------------------------------------------------------------

/** One run of the publishing pipeline (sync content/, rebuild, swap in). */
export interface PublishRun {
  id: number;
  trigger: string;
  state: 'queued' | 'syncing' | 'building' | 'succeeded' | 'failed';
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  postsChanged: number;
  error: string | null;
}

export interface PublishStatus {
  current: PublishRun | null;
  recent: PublishRun[];
}

// ---- Errors ----------------------------------------------------------------------------------

/** Every error answer: 4xx or 5xx with one sentence that says what is wrong. */
export interface ErrorBody {
  error: string;
}
