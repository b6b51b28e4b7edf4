// The wire contract: the shapes the API answers with, the limits it enforces and the rules both
// sides of the wire apply. It imports no code, so islands can use it without pulling in server
// code; the API's routes answer with these types and the database layer maps rows to them.
// The product rules behind the numbers are written down in docs/product.md. Its only imports are
// types of its parts in ./contract/, which import nothing either.

import type { ItemChecks } from './contract/screening.ts';

import type { ExportedAlerts } from './contract/favourites.ts';

// ---- Defaults ----------------------------------------------------------------------------------
// What the site calls itself and where it lives when the environment says nothing (.env.example):
// the server (api/env.ts), the app's own defaults, the build (astro.config.mjs) and the pages
// (src/config.ts) all start from these.

export const DEFAULT_SITE_NAME = 'Nestling';
export const DEFAULT_SITE_URL = 'http://127.0.0.1:4321';
export const DEFAULT_MARKETPLACE_URL = 'https://m.nestling.example';
export const DEFAULT_PRIVACY_EMAIL = 'privacy@nestling.example';

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
/** Posts in one GET /api/blog/threads (the first page of each one's thread). */
export const THREADS_PER_REQUEST_MAX = 100;

// ---- Items -----------------------------------------------------------------------------------

/** The Item shape of the marketplace listing, as parents get it: only cleared listings are items. */
export interface Item {
  itemId: string;
  itemName: string;
  category: string;
  listingPrice: string;
  imageUrl: string | null;
  condition: string | null;
  brand: string | null;
  ageGroup: string;
  /** What was checked and when (docs/product.md, "Listing screening"). */
  checks: ItemChecks;
  /** Safety notes parents read on the item, in plain words. */
  safetyNotes: string[];
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
  /** The featured image's alt text, as the editor wrote it (null: an image from content/, described by the title). */
  featuredImageAlt: string | null;
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
  featuredImageAlt: string | null;
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

/**
 * Where a comment stands (docs/product.md, "Trust and safety"): shown; hidden by reports until a
 * moderator decides; waiting for review before anyone else sees it; removed by a moderator;
 * deleted by its author (or a moderator deleting their own). Only `visible` comments are counted.
 */
export const COMMENT_STATUSES = ['visible', 'held', 'pending', 'removed', 'deleted'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/**
 * A reply: a comment without reply_count, parent_comment_id and replies. The content of anything
 * not `visible` is '' except for moderators (and the author of a pending comment); a deleted
 * comment also comes without its author. The screens show placeholders from `status`.
 */
export interface Reply {
  comment_id: number;
  content: string;
  author_name: string;
  author_avatar_url: string | null;
  created_at: string;
  like_count: number;
  status: CommentStatus;
  /** When its author last edited it, or null. */
  edited_at: string | null;
  /** Whether the signed-in viewer wrote it (always false for anonymous readers). */
  is_own: boolean;
  /** For its author: until when it may still be edited; null otherwise. */
  can_edit_until: string | null;
  /** For its author (when removed) and for moderators: why it is not visible; null otherwise. */
  status_reason: string | null;
}

/** A top-level comment with its replies (oldest first). */
export interface Comment extends Reply {
  reply_count: number;
  parent_comment_id: null;
  replies: Reply[];
}

/** One post's entry in GET /api/blog/threads: its thread's first page and the next page's cursor. */
export interface ThreadFirstPage {
  postId: number;
  comments: Comment[];
  /** Where the next page starts (`?before=`), or null when this page shows every comment. */
  next: number | null;
}

/**
 * What POST /api/blog/posts/:postId/comments and PATCH /api/blog/comments/:commentId answer: the
 * comment as its author sees it and the post's count (unchanged when the comment waits for review).
 */
export interface CommentPosted {
  comment: Reply;
  commentCount: number;
}

/** An author may edit a comment for this long after posting it. */
export const EDIT_WINDOW_MINUTES = 15;
export const EDIT_WINDOW_MS = EDIT_WINDOW_MINUTES * 60_000;

/** A comment with more links than this waits for a moderator before anyone else sees it. */
export const MAX_LINKS_WITHOUT_REVIEW = 2;

/** Links in a comment's text: web addresses written out (http://, https://, www.). */
export function countLinks(text: string): number {
  return text.match(/\b(?:https?:\/\/|www\.)[^\s]/gi)?.length ?? 0;
}

// ---- Trust and safety ------------------------------------------------------------------------

/** The five things a parent can report a comment for (the safety page lists the same five). */
export const REPORT_CATEGORIES = [
  'child_safety',
  'unsafe_item',
  'inappropriate_content',
  'suspicious_behavior',
  'suspected_non_parent',
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export const REPORT_CATEGORY_LABELS: Record<ReportCategory, string> = {
  child_safety: 'Child safety concern',
  unsafe_item: 'Unsafe item',
  inappropriate_content: 'Inappropriate content',
  suspicious_behavior: 'Suspicious behavior',
  suspected_non_parent: 'Suspected non-parent',
};

/** A report's optional note. */
export const REPORT_NOTE_MAX = 1000;
/** Reports a parent may file a minute. */
export const REPORTS_PER_MINUTE = 5;
/** Open reports from this many different parents hide a comment until a moderator decides. */
export const HOLD_AFTER_REPORTERS = 3;
/** How soon a report is due for review: child safety within the hour, the rest within a day. */
export function reviewHours(category: ReportCategory): number {
  return category === 'child_safety' ? 1 : 24;
}
/** Content removed for child safety is kept out of sight this long (evidence), then purged. */
export const EVIDENCE_RETENTION_DAYS = 365;
/** A moderator's written reason. */
export const MODERATION_REASON_MAX = 500;
/** The longest suspension in days; longer ones are "until lifted" (days: null). */
export const SUSPENSION_DAYS_MAX = 3650;

export type ReportStatus = 'open' | 'resolved';

/**
 * What POST /api/blog/comments/:commentId/reports answers (201 new, 200 the parent's existing
 * report): the report, the comment as the reporter now sees it (held, if this report hid it) and
 * the post's comment count.
 */
export interface ReportFiled {
  reportId: number;
  status: ReportStatus;
  comment: Reply;
  commentCount: number;
}

/** What a moderator weighs about a comment's author: a suspension in force and their record. */
export interface AuthorStanding {
  /** The author's active suspension, if any (until null: until a moderator lifts it). */
  suspension: { until: string | null; reason: string } | null;
  /** The author's other comments (not this one) that have at least one open report. */
  otherOpenReports: number;
  /** The author's other comments removed by a moderator (status 'removed'). */
  removedComments: number;
}

/** A comment as moderators see it: everything, with its post and author. */
export interface ModeratedComment {
  commentId: number;
  parentCommentId: number | null;
  postId: number;
  postSlug: string;
  postTitle: string;
  authorUid: string | null;
  authorName: string;
  content: string;
  status: CommentStatus;
  statusReason: string | null;
  createdAt: string;
  editedAt: string | null;
  /** Set while content removed for child safety is kept as evidence; blanked after this time. */
  purgeAfter: string | null;
  /** null when the comment has no author any more (erased). */
  authorStanding: AuthorStanding | null;
}

export type ResolveAction = 'remove' | 'restore' | 'dismiss';

/** The open (or resolved) reports of one comment, as the console lists them. */
export interface ReportGroup {
  /** The group's oldest report: resolving it resolves every open report of the comment. */
  reportId: number;
  status: ReportStatus;
  comment: ModeratedComment;
  categories: { category: ReportCategory; count: number }[];
  reporterCount: number;
  notes: { reportId: number; category: ReportCategory; note: string; createdAt: string }[];
  childSafety: boolean;
  openedAt: string;
  dueAt: string;
  overdue: boolean;
  /** For resolved groups: what was decided. */
  resolution: { action: ResolveAction; reason: string; at: string; byName: string } | null;
}

/** How long the moderator who restored or dismissed may still undo it (a misclick, not a review). */
export const UNDO_WINDOW_SECONDS = 60;

export interface ReportResolved {
  comment: ModeratedComment;
  resolvedReportIds: number[];
  /**
   * For restore and dismiss: the decision's audit entry, which POST
   * /api/moderation/decisions/:auditId/undo takes until `until`. null for remove, which is not undone.
   */
  undo: { auditId: number; until: string } | null;
}

/** What an undo answers: the comment as it was before the decision, and the reports open again. */
export interface DecisionUndone {
  comment: ModeratedComment;
  reopenedReportIds: number[];
}

export interface Suspension {
  id: number;
  uid: string;
  userName: string;
  /** null: until a moderator lifts it. */
  until: string | null;
  reason: string;
  createdAt: string;
  createdByName: string;
}

/**
 * One line of the audit log: who did what to which comment or parent, when and why. Written in
 * the same transaction as the action; nothing in the API edits or deletes it. `action` and
 * `targetType` are open-ended; the values in use are AUDIT_ACTIONS and AUDIT_TARGETS.
 */
export interface AuditEntry {
  id: number;
  at: string;
  /** null for the system (automatic holds, purges). */
  actorUid: string | null;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  details: Record<string, string | number | boolean | null>;
  /**
   * The target in words, with a link to it when it has a page: never a raw uid, so the log can be
   * read without looking ids up (and an erased parent stays unnamed).
   */
  target: { name: string; href: string | null };
}

export const AUDIT_ACTIONS = {
  'comment.hold': 'hid a reported comment for review',
  'comment.remove': 'removed a comment',
  'comment.restore': 'restored a comment',
  'comment.delete': 'deleted a comment',
  'comment.approve': 'approved a comment',
  'comment.reject': 'rejected a comment',
  'comment.purge': 'purged preserved evidence',
  'report.dismiss': 'dismissed reports',
  'decision.undo': 'undid a decision',
  'user.suspend': 'suspended a parent',
  'user.lift': 'lifted a suspension',
  'account.erase': 'erased an account',
  'deletion_request.receive': 'received a deletion request',
  'deletion_request.erase': 'erased the account of a deletion request',
  'deletion_request.close': 'closed a deletion request: no account found',
  'release.rollback': 'rolled the site back to an earlier release',
  'recall.confirm': 'confirmed an item is recalled',
  'recall.dismiss': 'dismissed a possible recall',
  'post.submit': 'submitted a post for review',
  'post.publish': 'published a post',
  'post.schedule': 'scheduled a post',
  'post.withdraw': 'withdrew a post',
  'post.restore': 'restored an earlier revision of a post',
  'user.role': "changed a person's role",
  'listing.clear': 'cleared a held listing',
  'listing.block': 'blocked a listing',
  'listing.reage': 'changed the age group of a listing and cleared it',
  'listing.blur': 'published a listing with faces blurred',
} as const;
export const AUDIT_TARGETS = [
  'comment',
  'user',
  'deletion_request',
  'release',
  'recall_match',
  'post',
  'listing',
] as const;

/** How the console words an audit action; an action it does not know is shown as it is. */
export function auditActionLabel(action: string): string {
  const labels: Record<string, string | undefined> = AUDIT_ACTIONS;
  return labels[action] ?? action;
}

/** The name the audit log gives the system's own actions. */
export const SYSTEM_ACTOR = 'Nestling (automatic)';

/** Something sent to the outside world that has not arrived yet (an escalation, an email). */
export interface WaitingDelivery {
  id: number;
  kind: string;
  purpose: string;
  /** Where it goes; null while nowhere is configured. */
  target: string | null;
  attempts: number;
  nextAttemptAt: string;
  /** Whether the last attempt failed. */
  failed: boolean;
  /** The technical error of the last attempt: for admins only, null for moderators. */
  lastError: string | null;
  createdAt: string;
  reportId: number | null;
}

export interface EscalationStatus {
  /** Whether SAFETY_ESCALATION_URL is set: without it escalations wait here. */
  configured: boolean;
  waiting: WaitingDelivery[];
}

// ---- Profiles and roles ----------------------------------------------------------------------

export const ROLES = ['user', 'author', 'editor', 'moderator', 'admin'] as const;
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

/** How the screens name each role (docs/product.md, "Roles"): never the stored word. */
export const ROLE_LABELS: Record<Role, string> = {
  user: 'Parent',
  author: 'Author',
  editor: 'Editor',
  moderator: 'Moderator',
  admin: 'Admin',
};

/** A stored role as one of ROLES: anything else is a plain member (see UserProfile.role). */
export function toRole(role: string | null | undefined): Role {
  return ROLES.find((known) => known === role) ?? 'user';
}

/**
 * A person as admins see them under "People and roles" on /admin (GET /api/admin/people,
 * GET /api/admin/staff, PUT /api/admin/people/role): someone who has signed in at least once.
 */
export interface PersonWithRole {
  name: string;
  email: string;
  role: Role;
  /** When their role was last set (the profile's last change: only a role changes it). */
  roleChangedAt: string;
  /** Whether this is the admin asking: nobody changes their own role. */
  isYou: boolean;
}

/** GET /api/admin/staff: everyone whose role is not `user`, admins first, then by name. */
export type StaffList = PersonWithRole[];

/** A parent's own suspension, as their profile tells them: until when (null: until lifted) and why. */
export interface OwnSuspension {
  until: string | null;
  reason: string;
}

/** GET /api/profile: the profile, and the suspension in force now, if any (shown before they type). */
export interface ProfileAnswer extends UserProfile {
  suspension: OwnSuspension | null;
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

// ---- Your account ----------------------------------------------------------------------------

/** What DELETE /api/account answers: done, and where the confirmation email goes. */
export interface AccountErased {
  erased: true;
  email: string;
}

/**
 * The name the records that outlive an erased account carry (reports they filed, suspensions,
 * audit entries), with a random id in place of theirs (docs/product.md, "Deleting your account").
 */
export const ERASED_ACCOUNT_NAME = 'Deleted account';

export interface ExportedComment {
  commentId: number;
  /** null for a comment; the comment it answers for a reply. */
  parentCommentId: number | null;
  postTitle: string;
  /** Absolute: the post's page, at this comment. */
  url: string;
  /** What the parent wrote; null while it is kept out of sight as child-safety evidence. */
  content: string | null;
  status: CommentStatus;
  createdAt: string;
  editedAt: string | null;
  likeCount: number;
}

export interface ExportedLike {
  postTitle: string;
  /** Absolute: the post, or the comment on it. */
  url: string;
  /** For a comment's like; null for a post's. */
  commentId: number | null;
  likedAt: string;
}

export interface ExportedReport {
  reportId: number;
  commentId: number;
  /** Absolute: the reported comment on its post. */
  url: string;
  category: ReportCategory;
  note: string | null;
  status: ReportStatus;
  createdAt: string;
  resolution: ResolveAction | null;
  resolvedAt: string | null;
}

export interface ExportedSuspension {
  reason: string;
  from: string;
  until: string | null;
  liftedAt: string | null;
}

/** GET /api/account/export: everything Nestling keeps about the parent, as one JSON file. */
export interface AccountExport {
  exportedAt: string;
  site: string;
  profile: UserProfile;
  comments: ExportedComment[];
  likes: { posts: ExportedLike[]; comments: ExportedLike[] };
  reports: ExportedReport[];
  suspensions: ExportedSuspension[];
  /** Favourites, saved searches, alerts sent and the alert switches. */
  alerts: ExportedAlerts;
  notifications: {
    /** The address reply emails go to, once confirmed; null if they never asked for any. */
    email: string | null;
    confirmedAt: string | null;
    /** false after "stop all email". */
    enabled: boolean;
    threads: { postTitle: string; url: string; since: string; lastEmailAt: string | null }[];
  };
}

// ---- Account deletion requests ---------------------------------------------------------------

export const DELETION_REASON_MAX = 200;
export const DELETION_INFO_MAX = 2000;
/** A request from the deletion form is done within this many days of arriving. */
export const DELETION_DUE_DAYS = 30;

/** Open, or how it was closed: the account was erased, or no account uses the address. */
export const DELETION_REQUEST_STATUSES = ['open', 'erased', 'no_account'] as const;
export type DeletionRequestStatus = (typeof DELETION_REQUEST_STATUSES)[number];

/** A request from the deletion form, as admins see it (GET /api/admin/deletion-requests). */
export interface DeletionRequest {
  id: number;
  /** The address it came from; '' once the request is closed (the address is not kept). */
  email: string;
  reason: string | null;
  additionalInfo: string | null;
  createdAt: string;
  dueAt: string;
  overdue: boolean;
  status: DeletionRequestStatus;
  closedAt: string | null;
  closedByName: string | null;
}

export interface DeletionRequestList {
  open: DeletionRequest[];
  /** The most recently closed, newest first. */
  closed: DeletionRequest[];
}

// ---- Email -----------------------------------------------------------------------------------

/** At most one reply email per thread per parent in this many minutes. */
export const REPLY_EMAIL_INTERVAL_MINUTES = 60;

/**
 * A parent's reply emails: never asked for (or stopped), waiting for the confirmation link, or on.
 */
export type ReplyEmailState = 'none' | 'pending' | 'confirmed';

/** GET/PUT /api/notifications/threads/:postId: whether replies in this thread are emailed. */
export interface ThreadNotifications {
  postId: number;
  subscribed: boolean;
  email: ReplyEmailState;
  /** Where the emails go (the account's address); null before the parent first asks. */
  address: string | null;
}

export const UNSUBSCRIBE_SCOPES = ['thread', 'all'] as const;
export type UnsubscribeScope = (typeof UNSUBSCRIBE_SCOPES)[number];

/** The random tokens in confirm and unsubscribe links: 32 bytes, hex. */
export const LINK_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export interface Unsubscribed {
  scope: UnsubscribeScope;
  /** The thread's post, for `thread`. */
  postTitle: string | null;
}

export interface EmailConfirmed {
  /** The link had been used before: nothing changed. */
  alreadyConfirmed: boolean;
}

/** One message of the mail log (GET /api/admin/outbox). */
export interface OutboxEmail {
  id: number;
  purpose: string;
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
  /** `sent`: handed to the SMTP server, or kept here without one; `waiting`: to be retried. */
  state: 'sent' | 'waiting';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface Outbox {
  /** `smtp`: SMTP_URL is set; `outbox`: messages are only kept here (and in the server's log). */
  transport: 'smtp' | 'outbox';
  emails: OutboxEmail[];
}

// ---- Publishing ------------------------------------------------------------------------------

/**
 * Where a publish run stands. A run is also the release it builds (same id): queued, then syncing
 * content/, then building its site folder; then succeeded (it went live, and may since have been
 * replaced), failed (nothing changed for readers), rolled_back (an admin went back from it) or
 * retired (its build was removed: only the newest builds are kept).
 */
export const PUBLISH_STATES = [
  'queued',
  'syncing',
  'building',
  'succeeded',
  'failed',
  'rolled_back',
  'retired',
] as const;
export type PublishState = (typeof PUBLISH_STATES)[number];

/** Builds kept (docs/product.md, "Publishing"): older ones are retired, never the live or previous one. */
export const RELEASES_KEPT = 5;

/**
 * What a running publish is doing (docs/product.md, "Publishing"): syncing content/, rendering
 * pages, indexing them for search, compressing them, switching the live release.
 */
export const PUBLISH_PHASES = ['syncing', 'rendering', 'indexing', 'compressing', 'switching'] as const;
export type PublishPhase = (typeof PUBLISH_PHASES)[number];

/** How each phase is named on /admin, in the studio and by the command line. */
export const PUBLISH_PHASE_LABELS: Record<PublishPhase, string> = {
  syncing: 'Reading the posts',
  rendering: 'Rendering pages',
  indexing: 'Indexing for search',
  compressing: 'Compressing',
  switching: 'Going live',
};

export interface PublishProgress {
  phase: PublishPhase;
  /** Pages rendered so far (rendering), files compressed (compressing); 0 in the other phases. */
  done: number;
  /** How many there are to do, once the build knows; null before. */
  total: number | null;
  /**
   * Whether the build renders only the pages a change touches (true), the whole site (false), or
   * has not decided yet (null) (docs/decisions/019).
   */
  incremental: boolean | null;
}

/** One run of the publishing pipeline and the release it builds (sync content/, build, switch). */
export interface PublishRun {
  /** The run's id, which is also its release's id and the name of its build folder. */
  id: number;
  trigger: string;
  state: PublishState;
  /** Whether readers get this release now, in the pages and in the API. */
  live: boolean;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  /** Posts this release adds, changes or withdraws for readers, against the release live before it. */
  postsChanged: number;
  /** Posts readers see in this release; null until its snapshot is taken. */
  postCount: number | null;
  /** The release holds the posts published up to this time; null until its snapshot is taken. */
  contentAsOf: string | null;
  error: string | null;
  /** What the run is doing while it runs (syncing or building); null once it has finished or before it starts. */
  progress: PublishProgress | null;
}

export interface PublishStatus {
  /** The run in progress on any instance, else the queued one. */
  current: PublishRun | null;
  /** The newest runs, newest first. */
  recent: PublishRun[];
  /** The release readers get now (null before the first publish). */
  live: PublishRun | null;
  /** Where a rollback would go: the newest succeeded release older than the live one. */
  previous: PublishRun | null;
}

/** What a rollback did: readers now get `to` instead of `from`. */
export interface RolledBack {
  from: PublishRun;
  to: PublishRun;
}

// ---- Recall screening -------------------------------------------------------------------------
// Items are checked against the public recall database (docs/product.md, "Recall screening"). A
// match goes to moderators; nothing is blocked silently, and no match is never called a clearance.

/** GET /api/recalls?limit=: how many recalls by default, and at most. */
export const RECALLS_LIMIT_DEFAULT = 20;
export const RECALLS_LIMIT_MAX = 100;
/** A match scoring below this is not raised at all (see docs/product.md for how scores add up). */
export const RECALL_MATCH_MIN_SCORE = 50;

/** One recall of a children's product, as GET /api/recalls and /recalls show it (newest first). */
export interface Recall {
  recallId: number;
  recallNumber: string | null;
  /** The recall's date (ISO 8601), as published. */
  recallDate: string | null;
  title: string;
  description: string | null;
  hazards: string[];
  remedies: string[];
  /** The official notice. */
  url: string | null;
  products: { name: string; model: string | null; units: string | null }[];
  manufacturers: string[];
}

/** GET /api/recalls/status: where the data came from and when (all nulls and 0: never imported). */
export interface RecallStatus {
  /** The file or address of the last import; 'sample' for the sample feed that ships in content/. */
  source: string | null;
  lastImportedAt: string | null;
  /** Every recall kept, whatever its product. */
  count: number;
  /** Of those, the recalls of children's products (what /recalls lists). */
  childrenCount: number;
}

export const RECALL_MATCH_STATUSES = ['open', 'confirmed', 'dismissed'] as const;
export type RecallMatchStatus = (typeof RECALL_MATCH_STATUSES)[number];

/** GET /api/moderation/recall-matches: a candidate match, open ones first. */
export interface RecallMatch {
  matchId: number;
  status: RecallMatchStatus;
  /** 0 to 100. */
  score: number;
  /** The terms that matched, in words: "brand “Cozy Cradle” = manufacturer “Cozy Cradle Inc.”". */
  terms: string[];
  item: { itemId: string; itemName: string; brand: string | null; imageUrl: string | null };
  recall: Recall;
  raisedAt: string;
  decision: { action: 'confirm' | 'dismiss'; reason: string | null; at: string; byName: string } | null;
}

/** POST /api/moderation/recall-matches/:matchId/resolve answers the match as it now is. */
export interface RecallMatchResolved {
  match: RecallMatch;
  /** A confirmation starts a publish, so the item leaves the pages too; null for a dismissal. */
  publish: PublishRun | null;
}

// ---- Errors ----------------------------------------------------------------------------------

/** Every error answer: 4xx or 5xx with one sentence that says what is wrong. */
export interface ErrorBody {
  error: string;
}
