// A post's featured image (docs/product.md, "The studio"). An uploaded image is a <picture>: AVIF
// where the browser takes it, else WebP, each in every width the server made, with the image's own
// width and height so nothing moves as it loads. A file in public/ stays a plain <img>.
import { uploadedImageSources } from '../../api/contract/studio.ts';

/** How wide the image is shown, for each layout (the `sizes` attribute). */
export const IMAGE_SIZES = {
  /** The post page's column (max-w-3xl), or the screen on a phone. */
  post: '(min-width: 48rem) 48rem, 100vw',
  /** A card in the blog's grid: one, two or three columns of the 80rem page. */
  card: '(min-width: 80rem) 25rem, (min-width: 64rem) 33vw, (min-width: 40rem) 50vw, 100vw',
  /** The featured card: half the page from md on. */
  featuredCard: '(min-width: 80rem) 40rem, (min-width: 48rem) 50vw, 100vw',
  /** The home page's community feed: three columns from md on. */
  feed: '(min-width: 80rem) 25rem, (min-width: 48rem) 33vw, 100vw',
} as const;

interface Props {
  url: string;
  /** The editor's description; none (an image from content/) leaves it to the post's title. */
  alt: string | null | undefined;
  sizes: string;
  className?: string;
  loading?: 'lazy' | 'eager';
  fetchPriority?: 'high';
}

export default function ResponsiveImage({
  url,
  alt,
  sizes,
  className,
  loading = 'lazy',
  fetchPriority,
}: Props) {
  const sources = uploadedImageSources(url);
  const common = { alt: alt ?? '', className, loading, fetchPriority, decoding: 'async' } as const;
  if (!sources) return <img src={url} width={800} height={450} {...common} />;
  return (
    // display: contents, so the <img> stays the box its container lays out (flex, grid).
    <picture className="contents">
      <source type="image/avif" srcSet={sources.avifSrcset} sizes={sizes} />
      <img
        src={sources.src}
        srcSet={sources.webpSrcset}
        sizes={sizes}
        width={sources.width}
        height={sources.height}
        {...common}
      />
    </picture>
  );
}
