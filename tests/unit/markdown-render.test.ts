// Rendering a post's Markdown (api/lib/html.ts) runs in the server's process for every import, save
// and preview, on one jsdom window kept for the process: what one render leaves on that window
// would make every later render slower and the server bigger. jsdom's selector engine did: nine
// listeners on the window for each body queried with a selector, never removed (a render took
// 7.7 ms after 3,000 of them, against 2 ms at first; the first import of 5,000 posts took 56 s).
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { imagesWithoutAlt, renderMarkdown } from '../../api/lib/html.ts';
import { imageUrl } from '../../api/contract/studio.ts';

// Every jsdom EventTarget's addEventListener, window included, is this class's. jsdom itself first:
// html.ts loads it only when it first renders, and its parts cannot be loaded before the whole.
const require = createRequire(import.meta.url);
require('jsdom');
const { implementation: EventTargetImpl } = require('jsdom/lib/jsdom/living/events/EventTarget-impl.js') as {
  implementation: { prototype: { addEventListener: (...args: unknown[]) => void } };
};

const uploaded = imageUrl('abcdef0123456789', 1600, 1200, 1600, 'webp');
const markdown = (i: number) =>
  `## Post ${i}\n\nA pram that folds. ![The pram, folded](${uploaded})\n\n![](/images/posts/pram.svg)\n`;

describe('rendering Markdown', () => {
  it('leaves nothing on the shared window, however many bodies it renders', () => {
    renderMarkdown(markdown(0)); // makes the window
    const added = vi.spyOn(EventTargetImpl.prototype, 'addEventListener');
    try {
      for (let i = 1; i <= 20; i++) {
        const html = renderMarkdown(markdown(i));
        // Still the whole rendering: the uploaded image as a <picture>, the other with empty alt.
        expect(html).toContain(`<h2>Post ${i}</h2>`);
        expect(html).toContain('<picture><source type="image/avif"');
        expect(html).toContain('<img src="/images/posts/pram.svg" alt="">');
        expect(imagesWithoutAlt(html)).toEqual(['/images/posts/pram.svg']);
      }
      expect(added).not.toHaveBeenCalled();
    } finally {
      added.mockRestore();
    }
  });
});
