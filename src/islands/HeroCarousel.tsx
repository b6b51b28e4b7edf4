// The home hero: 3 slides advancing every 10 s (docs/product.md). It pauses while hovered or focused,
// has a pause button (WCAG 2.2.2), and never auto-advances under prefers-reduced-motion.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { HERO_ADVANCE_MS, HERO_SLIDE_COUNT, MARKETPLACE_URL } from '../config.ts';

interface Slide {
  title: string;
  text: string;
  image: string;
  links: { label: string; href: string; external?: boolean; primary?: boolean }[];
}

const slides: Slide[] = [
  {
    title: 'Buy and sell with confidence',
    text: "Pre-loved children's things from other parents, each listing checked before it is shown. Good for your budget, and kinder to the planet.",
    image: '/images/hero/hero-marketplace.svg',
    links: [
      { label: 'Start Shopping', href: MARKETPLACE_URL, external: true, primary: true },
      { label: 'List an Item', href: MARKETPLACE_URL, external: true },
    ],
  },
  {
    title: 'Safety comes first',
    // Only what runs (docs/product.md, "Listing screening"); the recall check is named where the
    // page knows recall data was imported.
    text: 'Every listing is checked against safety rules for age and condition before parents see it, and parent moderators review what the checks hold.',
    image: '/images/hero/hero-safety.svg',
    links: [{ label: 'How We Keep You Safe', href: '/safety', primary: true }],
  },
  {
    title: 'A community of parents',
    text: 'Swap advice, stories and tips with parents like you on the Nestling blog.',
    image: '/images/hero/hero-community.svg',
    links: [{ label: 'Join the Conversation', href: '/blog', primary: true }],
  },
];

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const prefersReducedMotion = () => window.matchMedia(REDUCED_MOTION).matches;
function subscribeReducedMotion(onChange: () => void) {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export default function HeroCarousel() {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [paused, setPaused] = useState(false);
  // Static HTML assumes reduced motion, so nothing moves before the island knows.
  const reducedMotion = useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => true);

  const running = !hovered && !focused && !paused && !reducedMotion;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % HERO_SLIDE_COUNT), HERO_ADVANCE_MS);
    return () => clearInterval(timer);
  }, [running, index]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      data-autoplay={running ? 'on' : 'off'}
      className="bg-brand-light relative overflow-hidden"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        {slides.map((slide, i) => (
          <div
            key={slide.title}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${HERO_SLIDE_COUNT}`}
            hidden={i !== index}
            className="grid items-center gap-8 py-12 md:grid-cols-2 md:py-20"
          >
            <div>
              <h2 className="text-ink text-4xl font-extrabold tracking-tight sm:text-5xl">{slide.title}</h2>
              <p className="text-muted mt-4 max-w-xl text-lg">{slide.text}</p>
              <div className="mt-8 flex flex-wrap gap-3">
                {slide.links.map((link) => (
                  <a
                    key={link.label}
                    href={link.href}
                    {...(link.external ? { target: '_blank', rel: 'noopener' } : {})}
                    className={
                      link.primary
                        ? 'bg-brand hover:bg-brand-dark rounded-full px-6 py-3 font-semibold text-white shadow'
                        : 'border-brand text-brand-dark hover:bg-brand-light rounded-full border-2 bg-white px-6 py-3 font-semibold'
                    }
                  >
                    {link.label}
                    {link.external && <span className="sr-only"> (opens in a new tab)</span>}
                  </a>
                ))}
              </div>
            </div>
            <img
              src={slide.image}
              alt=""
              width={800}
              height={450}
              className="hidden w-full rounded-3xl shadow-lg md:block"
              fetchPriority={i === 0 ? 'high' : 'low'}
              loading={i === 0 ? 'eager' : 'lazy'}
            />
          </div>
        ))}
        <div className="flex items-center justify-center gap-2 pb-8">
          {slides.map((slide, i) => (
            <button
              key={slide.title}
              type="button"
              onClick={() => setIndex(i)}
              aria-label={`Show slide ${i + 1}: ${slide.title}`}
              aria-current={i === index ? 'true' : undefined}
              className="flex h-11 w-11 items-center justify-center rounded-full"
            >
              <span
                aria-hidden="true"
                className={`block h-3 rounded-full transition-all ${i === index ? 'bg-brand w-8' : 'bg-brand/40 w-3'}`}
              />
            </button>
          ))}
          <button
            type="button"
            onClick={() => setPaused((p) => !p)}
            className="text-brand-dark ml-2 rounded-full px-3 py-2 text-sm font-medium underline-offset-4 hover:underline"
          >
            {paused ? 'Play slideshow' : 'Pause slideshow'}
          </button>
        </div>
      </div>
    </section>
  );
}
