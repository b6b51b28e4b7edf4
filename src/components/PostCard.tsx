// A blog post card for the list (docs/product.md, "Blog list"): the whole card links to /blog/{slug}.
import type { BlogCategory } from '../../api/contract.ts';
import { categoryColor, postCategories, type PostSummary } from '../lib/blog.ts';
import { formatPostDate } from '../lib/format.ts';
import ResponsiveImage, { IMAGE_SIZES } from './ResponsiveImage.tsx';

interface Props {
  post: PostSummary;
  categories: BlogCategory[];
  featured?: boolean;
}

export function CategoryBadge({ category }: { category: BlogCategory }) {
  return (
    <span
      className="rounded-full px-2.5 py-1 text-xs font-semibold text-white"
      style={{ backgroundColor: categoryColor(category) }}
    >
      {category.categoryName}
    </span>
  );
}

export default function PostCard({ post, categories, featured = false }: Props) {
  const badges = postCategories(post, categories);
  return (
    <article
      className={`border-sand focus-within:ring-accent relative flex h-full overflow-hidden rounded-2xl border bg-white shadow-sm focus-within:ring-2 hover:shadow-md ${featured ? 'flex-col md:flex-row' : 'flex-col'}`}
    >
      {post.featuredImageUrl && (
        <ResponsiveImage
          url={post.featuredImageUrl}
          alt={post.featuredImageAlt}
          sizes={featured ? IMAGE_SIZES.featuredCard : IMAGE_SIZES.card}
          loading={featured ? 'eager' : 'lazy'}
          className={
            featured ? 'aspect-video w-full object-cover md:w-1/2' : 'aspect-video w-full object-cover'
          }
        />
      )}
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex flex-wrap gap-2">
          {badges.map((category) => (
            <CategoryBadge key={category.slug} category={category} />
          ))}
        </div>
        <h3 className={`text-ink font-bold ${featured ? 'text-2xl' : 'text-lg'}`}>
          <a href={`/blog/${post.slug}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {post.title}
          </a>
        </h3>
        <p className="text-muted line-clamp-3 text-sm">{post.excerpt}</p>
        <p className="text-muted mt-auto flex flex-wrap gap-x-3 pt-2 text-sm">
          <span>{post.authorName}</span>
          <time dateTime={post.publishedAt ?? post.createdAt}>
            {formatPostDate(post.publishedAt, post.createdAt)}
          </time>
          <span>{post.readingTimeMinutes} min read</span>
        </p>
      </div>
    </article>
  );
}
