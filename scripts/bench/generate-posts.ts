import fs from 'node:fs';
import path from 'node:path';

const WORDS = (
  'parents swap gently used strollers car seats cribs clothes toys books and nursery furniture ' +
  'safety check recall database condition age group meet in public places trade with confidence ' +
  'sustainable family budget community tips seasonal declutter baby gear toddler school'
).split(' ');

/**
 * A content folder with the real items and categories and `count` generated posts (each with a
 * few hundred words of Markdown), for build and publish benchmarks.
 */
export function generateContent(sourceContent: string, dest: string, count: number): string[] {
  fs.mkdirSync(path.join(dest, 'posts'), { recursive: true });
  for (const file of ['items.json', 'blog-categories.json']) {
    fs.copyFileSync(path.join(sourceContent, file), path.join(dest, file));
  }
  const categories = (
    JSON.parse(fs.readFileSync(path.join(sourceContent, 'blog-categories.json'), 'utf8')) as {
      slug: string;
    }[]
  ).map((c) => c.slug);
  const slugs: string[] = [];
  for (let i = 0; i < count; i++) {
    const slug = `generated-post-${String(i + 1).padStart(5, '0')}`;
    slugs.push(slug);
    const paragraphs = Array.from({ length: 6 }, (_, p) =>
      Array.from({ length: 60 }, (_, w) => WORDS[(i * 7 + p * 13 + w) % WORDS.length]).join(' '),
    );
    const publishedAt = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
    fs.writeFileSync(
      path.join(dest, 'posts', `${slug}.md`),
      [
        '---',
        `title: "Generated post ${i + 1}: notes for parents"`,
        `slug: ${slug}`,
        `excerpt: "Generated post number ${i + 1} for benchmarks."`,
        'author: "Bench Mark"',
        `publishedAt: ${publishedAt}`,
        `categories: [${categories[i % categories.length]}]`,
        `featured: ${i === 0}`,
        `kind: ${i % 5 === 0 ? 'discussion' : 'article'}`,
        '---',
        '',
        `## Part one\n\n${paragraphs.slice(0, 3).join('\n\n')}\n\n## Part two\n\n${paragraphs.slice(3).join('\n\n')}`,
        '',
      ].join('\n'),
    );
  }
  return slugs;
}
