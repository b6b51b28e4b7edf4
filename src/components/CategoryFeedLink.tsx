// The selected blog category's own feed, linked from its list (docs/product.md, "Blog list").
import type { BlogCategory } from '../../api/contract.ts';

export default function CategoryFeedLink({ category }: { category: BlogCategory }) {
  return (
    <p className="mt-4 text-sm">
      <a
        href={`/blog/category/${category.slug}/rss.xml`}
        className="text-brand-dark font-semibold underline-offset-4 hover:underline"
      >
        Subscribe to {category.categoryName} posts (RSS)
      </a>
    </p>
  );
}
