import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  CommentStatus,
  DeletionRequestStatus,
  PublishState,
  ReportCategory,
  ReportStatus,
  ResolveAction,
} from '../contract.ts';
import type { ListingDecision, ListingStatus, ScreeningState } from '../contract/screening.ts';

/**
 * The one description of the schema, on SQLite and PostgreSQL alike; migrations in ./migrations
 * must agree with it.
 */
export interface Database {
  items: ItemsTable;
  blog_categories: BlogCategoriesTable;
  blog_posts: BlogPostsTable;
  post_categories: PostCategoriesTable;
  comments: CommentsTable;
  comment_likes: CommentLikesTable;
  post_likes: PostLikesTable;
  post_view_days: PostViewDaysTable;
  users_profile: UsersProfileTable;
  deletion_requests: DeletionRequestsTable;
  comment_reports: CommentReportsTable;
  suspensions: SuspensionsTable;
  audit_log: AuditLogTable;
  deliveries: DeliveriesTable;
  email_settings: EmailSettingsTable;
  reply_subscriptions: ReplySubscriptionsTable;
  releases: ReleasesTable;
  release_posts: ReleasePostsTable;
  release_post_categories: ReleasePostCategoriesTable;
  site_state: SiteStateTable;
  publish_lock: PublishLockTable;
  warm_publishers: WarmPublishersTable;
  rate_limits: RateLimitsTable;
  revoked_sign_ins: RevokedSignInsTable;
  listing_photos: ListingPhotosTable;
  release_categories: ReleaseCategoriesTable;
  recalls: RecallsTable;
  recall_imports: RecallImportsTable;
  recall_matches: RecallMatchesTable;
  recall_refresh: RecallRefreshTable;
  post_revisions: PostRevisionsTable;
  post_redirects: PostRedirectsTable;
  images: ImagesTable;
  image_variants: ImageVariantsTable;
  favourites: FavouritesTable;
  saved_searches: SavedSearchesTable;
  alerts: AlertsTable;
  alert_settings: AlertSettingsTable;
  thread_events: ThreadEventsTable;
}

/** One recall of the public recall database, as last imported (RecallID is its key). */
export interface RecallsTable {
  recall_id: number;
  recall_number: string | null;
  recall_date: string | null;
  last_publish_date: string | null;
  title: string;
  description: string | null;
  url: string | null;
  consumer_contact: string | null;
  /** JSON: the record's lists (products, manufacturers, retailers, hazards, remedies, …). */
  record: string;
  /** 1 when the recall is of a children's product (what /recalls lists). */
  for_children: number;
  imported_at: string;
}

export interface RecallImportsTable {
  import_id: Generated<number>;
  source: string;
  imported_at: string;
  records: number;
  added: number;
  updated: number;
}

/** The daily refresh from RECALLS_URL: one row (refresh_id 1) that one instance claims at a time. */
export interface RecallRefreshTable {
  refresh_id: number;
  /** The instance running the refresh now, until lease_until. */
  holder: string | null;
  lease_until: string | null;
  /** The UTC day (YYYY-MM-DD) of the last refresh that worked. */
  refreshed_on: string | null;
  /** Failed tries since the last one that worked (the backoff grows with them). */
  failures: number;
  /** After a failure: no new try before this. */
  retry_at: string | null;
}

/** A candidate match of an item against a recall, for moderators to confirm or dismiss. */
export interface RecallMatchesTable {
  match_id: Generated<number>;
  item_id: string;
  recall_id: number;
  /** 0 to 100. */
  score: number;
  /** JSON array of the terms that matched, as shown to moderators. */
  terms: string;
  status: 'open' | 'confirmed' | 'dismissed';
  created_at: string;
  decided_at: string | null;
  decided_by_uid: string | null;
  decided_by_name: string | null;
  reason: string | null;
}

/** A listing from the marketplace, with where its screening stands (docs/product.md, "Listing screening"). */
export interface ItemsTable {
  item_id: string;
  item_name: string;
  category: string;
  listing_price: string;
  /** What an item card shows: our sample illustration, or the first photo's stored (and cleared) copy. */
  image_url: string | null;
  condition: string | null;
  brand: string | null;
  age_group: string | null;
  is_featured: number;
  created_at: string;
  description: string | null;
  manufacture_year: number | null;
  status: ColumnType<ListingStatus, ListingStatus | undefined, ListingStatus>;
  screening_state: ColumnType<ScreeningState, ScreeningState | undefined, ScreeningState>;
  /** JSON of the rules' findings (api/screening/rules.ts). */
  rule_findings: ColumnType<string, string | undefined, string>;
  /** The rules' version that found them: a listing screened under older rules is screened again. */
  rules_version: ColumnType<string, string | undefined, string>;
  /** A hash of what the marketplace sent: the same listing again changes nothing. */
  listing_hash: ColumnType<string, string | undefined, string>;
  /** JSON: the checks that ran on this version (rules, recall, and photo when it has photos). */
  checks_ran: ColumnType<string, string | undefined, string>;
  /** JSON: the safety notes parents read on the item (the rules' notes). */
  safety_notes: ColumnType<string, string | undefined, string>;
  received_at: string | null;
  checked_at: string | null;
  /** A moderator's decision on this version of the listing (cleared when the listing changes). */
  decision: ListingDecision | null;
  decision_reason: string | null;
  decided_at: string | null;
  decided_by_name: string | null;
}

/** A listing's photo and its analysis; a queued row is also a job of the analysis queue. */
export interface ListingPhotosTable {
  item_id: string;
  position: number;
  source_url: string;
  state: 'queued' | 'analysed' | 'failed';
  /** The stored copy (metadata stripped), in images. */
  image_id: string | null;
  /** The copy with faces blurred, made when a moderator publishes it so. */
  blurred_image_id: string | null;
  /** JSON of FaceBox[]. */
  faces: ColumnType<string, string | undefined, string>;
  /** JSON of the model's scores. */
  scores: string | null;
  outcome: 'pass' | 'flag' | null;
  /** JSON of ScreeningReason[]. */
  reasons: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_until: string | null;
  queued_at: string;
  analysed_at: string | null;
}

export interface BlogCategoriesTable {
  category_id: Generated<number>;
  slug: string;
  category_name: string;
  color_hex: string | null;
}

/** A release's copy of a blog category. */
export interface ReleaseCategoriesTable {
  release_id: number;
  category_id: number;
  slug: string;
  category_name: string;
  color_hex: string | null;
}

export type PostKind = 'article' | 'discussion';

export interface BlogPostsTable {
  post_id: Generated<number>;
  slug: string;
  title: string;
  excerpt: string;
  /** Sanitized HTML rendered from the Markdown source. */
  content: string;
  featured_image_url: string | null;
  author_name: string;
  kind: PostKind;
  is_featured: number;
  /** 1 while the post is live; drafts and withdrawn posts keep their row and counts. */
  is_published: number;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  reading_time_minutes: number;
  view_count: ColumnType<number, number | undefined, number>;
  like_count: ColumnType<number, number | undefined, number>;
  comment_count: ColumnType<number, number | undefined, number>;
  /** Hash of the source file, so a sync can tell a changed post from an unchanged one. */
  source_hash: string | null;
  /**
   * draft, review, published or withdrawn (is_published is 1 exactly when published); a published
   * post whose time is still to come is what the studio calls scheduled.
   */
  status: ColumnType<StoredPostStatus, StoredPostStatus | undefined, StoredPostStatus>;
  /** 'file': imported from content/posts, which the sync keeps it equal to; 'studio': the database is its truth. */
  source: ColumnType<'file' | 'studio', 'file' | 'studio' | undefined, 'file' | 'studio'>;
  /** Who created it in the studio; null for a post imported from a file. */
  author_uid: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its latest revision in post_revisions (0 before its first). */
  revision: ColumnType<number, number | undefined, number>;
  /** The revision readers have; null when none has been published. */
  published_revision: ColumnType<number | null, number | null | undefined, number | null>;
  featured_image_alt: ColumnType<string | null, string | null | undefined, string | null>;
}

export type StoredPostStatus = 'draft' | 'review' | 'published' | 'withdrawn';

/** Every saved version of a post's text and fields (the studio's history). */
export interface PostRevisionsTable {
  post_id: number;
  revision: number;
  title: string;
  slug: string;
  excerpt: string;
  markdown: string;
  /** The category slugs as a JSON array. */
  categories: string;
  kind: PostKind;
  is_featured: number;
  featured_image_url: string | null;
  featured_image_alt: string | null;
  saved_at: string;
  /** null for a revision imported from a file in content/posts. */
  saved_by_uid: string | null;
  saved_by_name: string;
  restored_from: number | null;
}

/** An address a published post had before its slug changed: it answers 301 to the post's address now. */
export interface PostRedirectsTable {
  from_slug: string;
  post_id: number;
  created_at: string;
}

/** An uploaded image: re-encoded without metadata; its widths and formats are image_variants. */
export interface ImagesTable {
  image_id: string;
  width: number;
  height: number;
  alt: string;
  uploaded_type: string;
  uploaded_bytes: number;
  created_at: string;
  created_by_uid: string | null;
}

export interface ImageVariantsTable {
  image_id: string;
  width: number;
  format: 'avif' | 'webp';
  content_type: string;
  data: Buffer;
}

export interface PostCategoriesTable {
  post_id: number;
  category_id: number;
}

export interface CommentsTable {
  comment_id: Generated<number>;
  post_id: number;
  parent_comment_id: number | null;
  author_uid: string | null;
  author_name: string;
  author_avatar_url: string | null;
  content: string;
  like_count: ColumnType<number, number | undefined, number>;
  reply_count: ColumnType<number, number | undefined, number>;
  created_at: string;
  /** Natural key of seeded comments so that re-seeding inserts nothing twice. */
  seed_key: string | null;
  /** 'visible', 'held', 'pending', 'removed' or 'deleted'; only visible comments are counted. */
  status: ColumnType<CommentStatus, CommentStatus | undefined, CommentStatus>;
  /** Why it is not visible: a moderator's reason, or why it waits for review. */
  status_reason: ColumnType<string | null, string | null | undefined, string | null>;
  edited_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When it was first shown to everyone; a parent with such a comment is past pre-moderation. */
  published_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Content removed for child safety is kept, out of sight, until then. */
  purge_after: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CommentReportsTable {
  report_id: Generated<number>;
  comment_id: number;
  reporter_uid: string;
  category: ReportCategory;
  note: string | null;
  status: ColumnType<ReportStatus, ReportStatus | undefined, ReportStatus>;
  created_at: string;
  due_at: string;
  resolved_at: string | null;
  resolved_by_uid: string | null;
  resolved_by_name: string | null;
  resolution: ResolveAction | null;
  resolution_reason: string | null;
}

/** An erased parent's sign-in, refused by every instance until its tokens would have expired. */
export interface RevokedSignInsTable {
  revocation_id: Generated<number>;
  /** SHA-256 of the Firebase uid, hex: the uid itself is not kept. */
  uid_hash: string;
  revoked_at: string;
}

export interface SuspensionsTable {
  suspension_id: Generated<number>;
  user_uid: string;
  /** null: until a moderator lifts it. */
  until: string | null;
  reason: string;
  created_at: string;
  created_by_uid: string;
  created_by_name: string;
  lifted_at: string | null;
  lifted_by_uid: string | null;
  lifted_by_name: string | null;
  lift_reason: string | null;
}

export interface AuditLogTable {
  audit_id: Generated<number>;
  at: string;
  actor_uid: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  reason: string | null;
  /** JSON object. */
  details: string;
}

export interface DeliveriesTable {
  delivery_id: Generated<number>;
  kind: string;
  purpose: string;
  target: string | null;
  /** JSON. */
  payload: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  claimed_until: string | null;
  delivered_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** A publish run and the release it builds (docs/decisions/010). */
export interface ReleasesTable {
  release_id: Generated<number>;
  trigger: string;
  state: PublishState;
  /** 1 while queued, else null (unique: one queued release at a time). */
  queued_slot: number | null;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Posts published up to this time are in the release; set when its snapshot is taken. */
  content_as_of: string | null;
  /** Its build folder under SITE_DIR. */
  folder: string | null;
  posts_changed: ColumnType<number, number | undefined, number>;
  post_count: number | null;
  error: string | null;
  /** The instance that ran it. */
  builder: string | null;
  /** JSON of PublishProgress while the run syncs or builds; null otherwise. */
  progress: string | null;
}

/** A release's copy of a published post's published fields (a published post has its time set). */
export interface ReleasePostsTable extends Pick<
  BlogPostsTable,
  | 'slug'
  | 'title'
  | 'excerpt'
  | 'content'
  | 'featured_image_url'
  | 'author_name'
  | 'kind'
  | 'is_featured'
  | 'reading_time_minutes'
  | 'source_hash'
  | 'featured_image_alt'
> {
  release_id: number;
  post_id: number;
  published_at: string;
}

export interface ReleasePostCategoriesTable {
  release_id: number;
  post_id: number;
  category_id: number;
}

/** One row (state_id 1): the live release. */
export interface SiteStateTable {
  state_id: number;
  live_release_id: number | null;
  changed_at: string | null;
}

/** One row (lock_id 1): who may build, until when. */
export interface WarmPublishersTable {
  instance: string;
  seen_until: string;
}

export interface PublishLockTable {
  lock_id: number;
  holder: string | null;
  lease_until: string | null;
}

export interface RateLimitsTable {
  scope: string;
  key: string;
  /** When the current window began, in milliseconds since 1970. */
  window_start: number;
  hits: number;
}

export interface CommentLikesTable {
  comment_id: number;
  user_uid: string;
  created_at: string;
}

export interface PostLikesTable {
  post_id: number;
  user_uid: string;
  created_at: string;
}

/** Views of a post on one UTC day (YYYY-MM-DD); the count shown is blog_posts.view_count. */
export interface PostViewDaysTable {
  post_id: number;
  day: string;
  views: number;
}

export interface UsersProfileTable {
  firebase_uid: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  role: string;
  /** JSON array of 'buyer' and/or 'seller'. */
  user_type: string;
  created_at: string;
  updated_at: string;
  /** 1 when the sign-in token said the address is verified (written on each signed-in request). */
  email_verified: ColumnType<number, number | undefined, number>;
}

export interface DeletionRequestsTable {
  request_id: Generated<number>;
  email: string;
  reason: string | null;
  additional_info: string | null;
  created_at: string;
  /** 'open', or how it was closed: the account was erased, or no account uses the address. */
  status: ColumnType<DeletionRequestStatus, DeletionRequestStatus | undefined, DeletionRequestStatus>;
  closed_at: ColumnType<string | null, string | null | undefined, string | null>;
  closed_by_name: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A parent's reply emails: double opt-in, then on until they stop them. */
export interface EmailSettingsTable {
  user_uid: string;
  email: string;
  /** sha256 (hex) of the confirmation link's token. */
  confirm_token_hash: string | null;
  confirm_sent_at: string | null;
  confirmed_at: string | null;
  /** 1, or 0 after "stop all email". */
  enabled: ColumnType<number, number | undefined, number>;
  /** Random: the "stop all email" links carry it. */
  unsubscribe_token: string;
  created_at: string;
  updated_at: string;
}

/** A thread (a post's comments) a parent asked to be emailed about. */
export interface ReplySubscriptionsTable {
  subscription_id: Generated<number>;
  user_uid: string;
  post_id: number;
  /** Random: this thread's unsubscribe links carry it. */
  token: string;
  last_notified_at: string | null;
  created_at: string;
}

export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Insertable<ItemsTable>;
export type BlogPostRow = Selectable<BlogPostsTable>;
export type PostRevisionsRow = Selectable<PostRevisionsTable>;
export type NewBlogPost = Insertable<BlogPostsTable>;
export type BlogPostUpdate = Updateable<BlogPostsTable>;
export type BlogCategoryRow = Selectable<BlogCategoriesTable>;
export type CommentRow = Selectable<CommentsTable>;
export type ReportRow = Selectable<CommentReportsTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type UserProfileRow = Selectable<UsersProfileTable>;
export type DeletionRequestRow = Selectable<DeletionRequestsTable>;
export type EmailSettingsRow = Selectable<EmailSettingsTable>;
export type ReleaseRow = Selectable<ReleasesTable>;
export type ReleasePostRow = Selectable<ReleasePostsTable>;

/** An item a parent saved (docs/product.md, "Favourites and alerts"); never shown to anyone else. */
export interface FavouritesTable {
  user_uid: string;
  item_id: string;
  saved_at: string;
  /** The item's price when it was saved, as the listing gives it ("24.00"). */
  price_when_saved: string;
}

/** "Tell me about new items like these": what a new or changed item is matched against. */
export interface SavedSearchesTable {
  search_id: Generated<number>;
  user_uid: string;
  category: string | null;
  age_group: string | null;
  max_price_cents: number | null;
  /** Lower-case words an item's name, brand or description must all contain. */
  words: string | null;
  frequency: 'instant' | 'daily';
  paused: ColumnType<number, number | undefined, number>;
  /** Random: this search's one-click unsubscribe carries it. */
  token: string;
  /** When its last email was queued (an instant search sends at most one per 15 minutes). */
  last_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A match, price drop or recall to tell a parent about: waiting until sent_at is set. */
export interface AlertsTable {
  alert_id: Generated<number>;
  user_uid: string;
  kind: 'search' | 'price' | 'safety';
  search_id: number | null;
  item_id: string;
  /** JSON: what the email says about it. */
  detail: string;
  /** Unique: the same alert is noted once. */
  dedupe_key: string;
  created_at: string;
  sent_at: string | null;
  outcome: 'sent' | 'skipped' | null;
}

/** A parent's alert switches; no row means the defaults (both on). */
export interface AlertSettingsTable {
  user_uid: string;
  safety: number;
  price_drops: number;
  token: string;
  last_digest_at: string | null;
  updated_at: string;
}

/** A change to a thread that readers can see, in the order of event_id (docs/decisions/026). */
export interface ThreadEventsTable {
  event_id: Generated<number>;
  post_id: number;
  comment_id: number;
  created_at: string;
}
