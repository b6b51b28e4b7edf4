import { type Kysely, sql } from 'kysely';
import { generatedId } from '../dialect.ts';

// Views were kept as one row per view, which nothing read: the count shown is
// blog_posts.view_count. A count per post and day keeps what those rows said (how many views a
// post had on which day) in a table that grows by one row per post a day, not per visit.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('post_view_days')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    // The UTC day, YYYY-MM-DD.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_view_days_pk', ['post_id', 'day'])
    .execute();
  await sql`
    insert into post_view_days (post_id, day, views)
    select post_id, substr(viewed_at, 1, 10), count(*) from post_views
    group by post_id, substr(viewed_at, 1, 10)`.execute(db);
  await db.schema.dropTable('post_views').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('post_views')
    .addColumn('view_id', 'integer', generatedId(db))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('viewed_at', 'text', (c) => c.notNull())
    .execute();
  // One row per counted view again, at the start of its day (the time of day was not kept).
  await sql`
    with recursive n (i) as (
      select 1 union all select i + 1 from n where i < (select max(views) from post_view_days)
    )
    insert into post_views (post_id, viewed_at)
    select d.post_id, d.day || 'T00:00:00.000Z' from post_view_days d join n on n.i <= d.views`.execute(db);
  await db.schema.dropTable('post_view_days').execute();
}
