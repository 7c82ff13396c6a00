import { TrendingDown, TrendingUp } from "lucide-react";
import { useEffect, useState } from "react";
import { SAMPLE_TICKERS, TICKER_TIMING } from "~/catalogue/marketing";

/** Whether the banner shows at `elapsedMs` after mount: visible 15 s, hidden 15 s, repeating every 30 s. */
export function tickerVisibleAt(elapsedMs: number): boolean {
  return elapsedMs % TICKER_TIMING.periodMs < TICKER_TIMING.visibleMs;
}

export function Ticker() {
  const [visible, setVisible] = useState(true);

  useEffect(() => {
    const started = Date.now();
    const id = window.setInterval(() => setVisible(tickerVisibleAt(Date.now() - started)), 1000);
    return () => window.clearInterval(id);
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
      // h-8: with the 64 px bar above, exactly the 96 px (pt-24) the layout leaves above the page.
      className="fixed inset-x-0 top-16 z-30 flex h-8 items-center overflow-hidden border-b border-white/10 bg-slate-900 text-xs"
    >
      <div className="animate-ticker flex w-max">
        <div className="flex">{items}</div>
        <div className="flex" aria-hidden>
          {items}
        </div>
      </div>
    </section>
  );
}
