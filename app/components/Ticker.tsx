import { Pause, Play, TrendingDown, TrendingUp } from "lucide-react";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { SAMPLE_TICKERS, TICKER_TIMING } from "~/catalogue/marketing";
import { watchInside } from "~/lib/watch-inside";

/** Whether the banner shows at `elapsedMs` after mount: visible 15 s, hidden 15 s, repeating every 30 s. */
export function tickerVisibleAt(elapsedMs: number): boolean {
  return elapsedMs % TICKER_TIMING.periodMs < TICKER_TIMING.visibleMs;
}

/**
 * The banner's running time after `deltaMs` more: it stands still while paused and while the pointer
 * or focus is inside, so the banner never hides under the pointer or takes the focused button with it.
 */
export function advanceTicker(elapsedMs: number, deltaMs: number, held: boolean): number {
  return held ? elapsedMs : elapsedMs + deltaMs;
}

// A visitor who paused the banner wants it still on the next page too, and home-page links load
// whole documents (ADR 0019). The server (and hydration) always says "playing": the cached HTML is
// the same for everyone (ADR 0015); the stored choice applies right after.
const PAUSED_KEY = "ticker-paused";
const listeners = new Set<() => void>();
/** The choice when storage is blocked: it then lasts for this page. */
let pausedHere: boolean | null = null;

function readPaused(): boolean {
  if (pausedHere !== null) return pausedHere;
  try {
    return window.localStorage.getItem(PAUSED_KEY) === "1";
  } catch {
    return false;
  }
}

function writePaused(paused: boolean) {
  try {
    if (paused) window.localStorage.setItem(PAUSED_KEY, "1");
    else window.localStorage.removeItem(PAUSED_KEY);
  } catch {
    pausedHere = paused;
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * WCAG 2.2.2 (Pause, Stop, Hide): the toggle stops both the scroll and the 15 s / 30 s show-hide
 * cycle. Pointer or focus inside also holds both (app.css pauses the scroll, before hydration too);
 * pressing Play while inside scrolls again until the visitor leaves and comes back.
 */
export function Ticker() {
  const [visible, setVisible] = useState(true);
  const paused = useSyncExternalStore(subscribe, readPaused, () => false);
  const [resumed, setResumed] = useState(false);
  const elapsed = useRef(0);
  const inside = useRef({ pointer: false, focus: false });

  useEffect(() => {
    if (paused) return;
    let last = Date.now();
    const id = window.setInterval(() => {
      const now = Date.now();
      elapsed.current = advanceTicker(elapsed.current, now - last, inside.current.pointer || inside.current.focus);
      last = now;
      setVisible(tickerVisibleAt(elapsed.current));
    }, 1000);
    return () => window.clearInterval(id);
  }, [paused]);

  // A ref callback: the banner leaves the DOM while hidden, and its listeners go and come with it.
  const track = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    const set = (what: "pointer" | "focus", value: boolean) => {
      inside.current[what] = value;
      if (!inside.current.pointer && !inside.current.focus) setResumed(false);
    };
    return watchInside(el, set);
  }, []);

  if (!visible) return null;
  const items = SAMPLE_TICKERS.map((t) => (
    <span key={t.symbol} className="mx-5 inline-flex items-center gap-2 whitespace-nowrap">
      <span className="font-bold text-white">{t.symbol}</span>
      <span className="text-slate-200">${t.price}</span>
      <span className={t.up ? "inline-flex items-center gap-1 text-emerald-300" : "inline-flex items-center gap-1 text-rose-300"}>
        {t.up ? <TrendingUp className="size-3" aria-hidden /> : <TrendingDown className="size-3" aria-hidden />}
        {t.change}
      </span>
    </span>
  ));
  return (
    <section
      aria-label="Sample AI market tickers"
      data-testid="ticker"
      data-ticker=""
      data-paused={paused ? "" : undefined}
      data-resumed={resumed ? "" : undefined}
      ref={track}
      // h-8: with the 64 px bar above, exactly the 96 px (pt-24) the layout leaves above the page.
      className="fixed inset-x-0 top-16 z-30 flex h-8 items-center overflow-hidden border-b border-white/10 bg-slate-900 text-xs"
    >
      <div className="min-w-0 flex-1 overflow-hidden">
        <div className="animate-ticker flex w-max">
          <div className="flex">{items}</div>
          <div className="flex" aria-hidden>
            {items}
          </div>
        </div>
      </div>
      {/* Fixed size in the server's HTML, so hydration and the label change never move anything. */}
      <button
        type="button"
        aria-label={paused ? "Play announcements" : "Pause announcements"}
        onClick={() => {
          setResumed(paused);
          writePaused(!paused);
        }}
        className="flex size-8 shrink-0 items-center justify-center gap-1.5 border-l border-white/10 bg-slate-900 font-semibold text-slate-100 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white sm:w-20"
      >
        {paused ? <Play className="size-3.5" aria-hidden /> : <Pause className="size-3.5" aria-hidden />}
        <span className="hidden sm:inline">{paused ? "Play" : "Pause"}</span>
      </button>
    </section>
  );
}
