import { useEffect, useRef, useState } from "react";
import { CAROUSEL_INTERVAL_MS, CAROUSEL_SIZE, carouselSlide, TESTIMONIALS } from "~/catalogue/testimonials";
import { watchInside } from "~/lib/watch-inside";
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from "./home-icons";
import { cx } from "./Section";

const iconButton =
  "grid size-10 place-items-center rounded-full border border-input bg-background text-foreground transition-colors hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2";

/**
 * Review carousel (spec: auto-advances every 5 s, wraparound prev/next, 8 slides from a list of 100).
 * WAI-ARIA carousel pattern: rotation stops while the pointer or focus is inside and can be turned
 * off; the live region speaks only when rotation is off. All 8 slides share one grid cell, so the
 * box keeps the height of the tallest and never shifts the page.
 */
export function ReviewCarousel() {
  const root = useRef<HTMLElement>(null);
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const rotating = playing && !hovered && !focused;

  // Each slide gets a full 5 s, also after a manual prev/next.
  useEffect(() => {
    if (!rotating) return;
    const id = window.setTimeout(() => setPosition(position + 1), CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(id);
  }, [rotating, position]);

  // Rotation pauses while the pointer or keyboard focus is inside the carousel.
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    return watchInside(el, (what, inside) => (what === "pointer" ? setHovered(inside) : setFocused(inside)));
  }, []);

  const { slot: active } = carouselSlide(position);
  const batchStart = position - active;

  return (
    <section aria-roledescription="carousel" aria-label="Customer reviews" ref={root} className="mx-auto max-w-3xl">
      <div className="grid min-h-64 sm:min-h-56" aria-live={rotating ? "off" : "polite"}>
        {Array.from({ length: CAROUSEL_SIZE }, (_, slot) => {
          const t = TESTIMONIALS[carouselSlide(batchStart + slot).index];
          if (!t) return null;
          const current = slot === active;
          return (
            <div
              key={slot}
              // WAI-ARIA carousel pattern: each slide is a group with roledescription "slide".
              // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role
              role="group"
              aria-roledescription="slide"
              aria-label={`Review ${slot + 1} of ${CAROUSEL_SIZE}`}
              aria-hidden={!current}
              className={cx(
                "col-start-1 row-start-1 transition-[opacity,visibility] duration-500 motion-reduce:transition-none",
                current ? "visible opacity-100" : "invisible opacity-0",
              )}
            >
              <figure className="flex h-full flex-col justify-between rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
                <div>
                  <p className="text-lg tracking-widest text-amber-700" aria-hidden>
                    ★★★★★
                  </p>
                  <p className="sr-only">Rated 5 out of 5</p>
                  <blockquote className="mt-3 text-lg leading-relaxed text-pretty text-foreground">“{t.quote}”</blockquote>
                </div>
                <figcaption className="mt-6 flex items-center gap-3">
                  <span
                    className="grid size-10 shrink-0 place-items-center rounded-full bg-secondary text-sm font-bold text-secondary-foreground"
                    aria-hidden
                  >
                    {t.name
                      .split(" ")
                      .map((w) => w[0])
                      .join("")}
                  </span>
                  <span className="text-sm">
                    <span className="block font-semibold text-foreground">{t.name}</span>
                    <span className="block text-muted-foreground">
                      {t.role}, {t.company}
                    </span>
                  </span>
                </figcaption>
              </figure>
            </div>
          );
        })}
      </div>

      <div className="mt-6 flex items-center justify-center gap-3">
        <button type="button" className={iconButton} aria-label="Previous review" onClick={() => setPosition((p) => p - 1)}>
          <ChevronLeftIcon className="size-5" />
        </button>
        <div className="flex items-center gap-1.5" aria-hidden>
          {Array.from({ length: CAROUSEL_SIZE }, (_, slot) => (
            <span
              key={slot}
              className={cx(
                "h-2 rounded-full transition-all motion-reduce:transition-none",
                slot === active ? "w-6 bg-primary" : "w-2 bg-slate-300",
              )}
            />
          ))}
        </div>
        <p className="min-w-12 text-center text-sm font-medium tabular-nums text-muted-foreground" data-testid="review-position">
          {active + 1} / {CAROUSEL_SIZE}
        </p>
        <button type="button" className={iconButton} aria-label="Next review" onClick={() => setPosition((p) => p + 1)}>
          <ChevronRightIcon className="size-5" />
        </button>
        <button
          type="button"
          className={iconButton}
          aria-label={playing ? "Stop automatic rotation" : "Start automatic rotation"}
          onClick={() => setPlaying((v) => !v)}
        >
          {playing ? <PauseIcon className="size-4" /> : <PlayIcon className="size-4" />}
        </button>
      </div>
    </section>
  );
}
