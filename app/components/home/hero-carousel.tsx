import { MapPin, Pause, Play } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useHydrated } from '~/lib/use-hydrated';
import { useT } from '~/modules/i18n/react';

export const HERO_INTERVAL_MS = 4000;
export type HeroSlide = { image: string; eyebrow: string; title: string; text: string; alt: string };

/**
 * Three landscape slides behind the shop's promise. Rotates every 4 s; pauses on hover and focus, with
 * the pause button, and never moves for visitors who prefer reduced motion.
 */
export function HeroCarousel({ slides, heading, intro, cta }: { slides: HeroSlide[]; heading: string; intro: string; cta: string }) {
  const t = useT();
  const hydrated = useHydrated();
  const [active, setActive] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const running = hydrated && !paused && !hovered && !focused && !reducedMotion;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setActive((i) => (i + 1) % slides.length), HERO_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [running, slides.length]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label={t('home.hero.label')}
      className="relative isolate overflow-hidden bg-roast text-cream"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div aria-live={running ? 'off' : 'polite'}>
        {slides.map((slide, i) => (
          <div
            key={slide.image}
            role="group"
            aria-roledescription="slide"
            aria-label={t('home.hero.slideOf', { n: i + 1, total: slides.length })}
            aria-hidden={i !== active}
            inert={i !== active}
            className={`absolute inset-0 -z-10 transition-opacity duration-1000 ${i === active ? 'opacity-100' : 'opacity-0'}`}
          >
            <img
              src={slide.image}
              alt={slide.alt}
              width={1600}
              height={900}
              fetchPriority={i === 0 ? 'high' : 'low'}
              loading={i === 0 ? 'eager' : 'lazy'}
              className="h-full w-full object-cover"
            />
            <div className="absolute inset-0 bg-gradient-to-r from-roast/90 via-roast/60 to-roast/10" />
            <div className="container-page absolute inset-x-0 bottom-20 md:bottom-24">
              <p className="ml-auto hidden max-w-xs rounded-2xl bg-roast/55 p-4 text-right text-sm backdrop-blur-sm xl:block">
                <span className="block font-semibold tracking-wide">{slide.eyebrow}</span>
                <span className="mt-1 block font-serif text-lg">{slide.title}</span>
                <span className="mt-1 block text-cream/85">{slide.text}</span>
              </p>
            </div>
          </div>
        ))}
      </div>

      <div className="container-page flex min-h-[30rem] flex-col justify-center py-20 md:min-h-[36rem]">
        <p className="eyebrow text-[#bfe3cf]">{slides[active]?.eyebrow}</p>
        <h1 className="mt-4 max-w-2xl text-4xl leading-[1.08] font-semibold text-balance sm:text-5xl lg:text-6xl">{heading}</h1>
        <p className="mt-5 max-w-xl text-lg leading-relaxed text-cream/90">{intro}</p>
        <p className="mt-4 inline-flex max-w-xl items-center gap-1.5 self-start rounded-full bg-roast/60 px-3 py-1 text-sm text-cream/90 backdrop-blur-sm xl:hidden">
          <MapPin aria-hidden="true" className="h-3.5 w-3.5 shrink-0 text-[#bfe3cf]" />
          {slides[active]?.title}
        </p>
        <div className="mt-9">
          <a href="#shop" className="btn bg-cream px-7 py-3.5 text-base text-roast hover:bg-white">
            {cta}
          </a>
        </div>
      </div>

      {hydrated && (
        <div className="container-page absolute inset-x-0 bottom-6 flex items-center gap-3">
          <button
            type="button"
            onClick={() => setPaused((p) => !p)}
            className="flex h-9 w-9 items-center justify-center rounded-full bg-cream/15 text-cream backdrop-blur hover:bg-cream/25"
            aria-label={paused ? t('home.hero.play') : t('home.hero.pause')}
          >
            {paused ? <Play aria-hidden="true" className="h-4 w-4" /> : <Pause aria-hidden="true" className="h-4 w-4" />}
          </button>
          <div className="flex gap-2">
            {slides.map((slide, i) => (
              <button
                key={slide.image}
                type="button"
                onClick={() => setActive(i)}
                aria-label={t('home.hero.goTo', { n: i + 1, title: slide.title })}
                aria-current={i === active ? 'true' : undefined}
                className="group flex h-9 items-center px-1"
              >
                <span className={`block h-1.5 rounded-full transition-all ${i === active ? 'w-10 bg-cream' : 'w-5 bg-cream/45 group-hover:bg-cream/70'}`} />
              </button>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  const update = useCallback((query: MediaQueryList | MediaQueryListEvent) => setReduced(query.matches), []);
  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    update(query);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [update]);
  return reduced;
}
