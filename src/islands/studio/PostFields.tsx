// The editor's fields about the post (docs/product.md, "The studio"): title, the slug made from
// it until the editor changes it, excerpt, categories, kind and the featured flag.
import { useId } from 'react';
import type { BlogCategory } from '../../../api/contract.ts';
import {
  POST_EXCERPT_MAX,
  POST_TITLE_MAX,
  SLUG_MAX,
  type StudioPostFields,
} from '../../../api/contract/studio.ts';
import { field, hint, label } from './parts.tsx';

interface Props {
  fields: StudioPostFields;
  onChange: (patch: Partial<StudioPostFields>) => void;
  onSlugEdited: (slug: string) => void;
  /** The address readers have now, for a published post (its old address will forward). */
  liveSlug: string | null;
  categories: BlogCategory[] | undefined;
}

export function PostFields({ fields, onChange, onSlugEdited, liveSlug, categories }: Props) {
  const id = useId();
  const toggleCategory = (slug: string, on: boolean) =>
    onChange({
      categories: on ? [...fields.categories, slug] : fields.categories.filter((c) => c !== slug),
    });
  return (
    <div className="space-y-5">
      <div>
        <label htmlFor={`${id}-title`} className={label}>
          Title
        </label>
        <input
          id={`${id}-title`}
          type="text"
          value={fields.title}
          maxLength={POST_TITLE_MAX}
          required
          onChange={(event) => onChange({ title: event.target.value })}
          className={`${field} text-lg font-semibold`}
        />
      </div>
      <div>
        <label htmlFor={`${id}-slug`} className={label}>
          Address (slug)
        </label>
        <div className="flex items-center gap-1">
          <span className="text-muted mt-1 text-sm" aria-hidden="true">
            /blog/
          </span>
          <input
            id={`${id}-slug`}
            type="text"
            value={fields.slug}
            maxLength={SLUG_MAX}
            onChange={(event) => onSlugEdited(event.target.value)}
            aria-describedby={`${id}-slug-hint`}
            className={`${field} font-mono text-sm`}
          />
        </div>
        <p id={`${id}-slug-hint`} className={hint}>
          Lowercase letters, digits and hyphens; made from the title until you change it.
          {liveSlug && liveSlug !== fields.slug && (
            <strong className="text-ink block font-semibold">
              Readers know this post at /blog/{liveSlug}: that address will forward to the new one.
            </strong>
          )}
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-excerpt`} className={label}>
          Excerpt
        </label>
        <textarea
          id={`${id}-excerpt`}
          value={fields.excerpt}
          maxLength={POST_EXCERPT_MAX}
          rows={2}
          onChange={(event) => onChange({ excerpt: event.target.value })}
          aria-describedby={`${id}-excerpt-hint`}
          className={field}
        />
        <p id={`${id}-excerpt-hint`} className={hint}>
          Shown under the title and in lists. {fields.excerpt.length}/{POST_EXCERPT_MAX} characters.
        </p>
      </div>
      <fieldset>
        <legend className={label}>Categories</legend>
        {!categories ? (
          <p className="text-muted mt-1 text-sm">Loading categories…</p>
        ) : (
          <ul className="mt-1 flex flex-wrap gap-x-5 gap-y-2">
            {categories.map((category) => (
              <li key={category.slug}>
                <label className="text-ink inline-flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={fields.categories.includes(category.slug)}
                    onChange={(event) => toggleCategory(category.slug, event.target.checked)}
                    className="h-4 w-4"
                  />
                  {category.categoryName}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="flex flex-wrap gap-x-10 gap-y-4">
        <fieldset>
          <legend className={label}>Kind</legend>
          <div className="mt-1 flex gap-5">
            {(['article', 'discussion'] as const).map((kind) => (
              <label key={kind} className="text-ink inline-flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-kind`}
                  value={kind}
                  checked={fields.kind === kind}
                  onChange={() => onChange({ kind })}
                  className="h-4 w-4"
                />
                {kind === 'article' ? 'Article' : 'Discussion'}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="text-ink inline-flex items-center gap-2 self-end text-sm">
          <input
            type="checkbox"
            checked={fields.featured}
            onChange={(event) => onChange({ featured: event.target.checked })}
            className="h-4 w-4"
          />
          Featured on the home page
        </label>
      </div>
    </div>
  );
}
