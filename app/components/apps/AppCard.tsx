import { ChevronDown } from "lucide-react";
import { memo } from "react";
import type { CatalogueApp } from "~/catalogue/apps";
import { APP_TAB_INFO, quoteApp, type AppPricingTab } from "~/catalogue/pricing";
import { reviewPool } from "~/catalogue/reviews";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { AppView } from "./query";
import { Star } from "./Stars";
import { TrialForm } from "./TrialForm";
import { isPlainClick } from "~/lib/use-hydrated";

/** Feature lists use the list marker as their check mark: no icon elements in 24+ cards. */
const FEATURES = "list-['✓_'] space-y-1 pl-5 text-sm marker:font-bold marker:text-emerald-700";

export interface AppCardProps {
  app: CatalogueApp;
  tab: AppPricingTab;
  view: AppView;
  /** `?reviews=<id>` with the current filters: opens the dialog from the server without JavaScript. */
  reviewsHref: string;
  /** This card's checkout is in progress. */
  processing: boolean;
  /** Some checkout is in progress: every trial button waits. */
  busy: boolean;
  /** Decides what the trial button does before hydration (TrialForm). */
  signedIn: boolean;
  /** This app's failed no-JavaScript checkout, if any. */
  trialError: string | null;
  onOpenReviews(app: CatalogueApp): void;
  onStartTrial(app: CatalogueApp): void;
}

/**
 * One app of the catalogue (spec section 2, /apps). The Insights toggle is a native <details>, so
 * it works without JavaScript and costs nothing to hydrate; the trial button is a form (TrialForm:
 * to /auth when signed out, the checkout when signed in) that JavaScript replaces with the checkout
 * flow.
 */
export const AppCard = memo(function AppCard({
  app,
  tab,
  view,
  reviewsHref,
  processing,
  busy,
  signedIn,
  trialError,
  onOpenReviews,
  onStartTrial,
}: AppCardProps) {
  const quote = quoteApp(app, tab);
  // A new app an operator added has no reviews to preview.
  const preview = app.reviews > 0 ? reviewPool(app, 1)[0] : undefined;
  const nameId = `app-${app.id}-name`;
  const list = view === "list";
  const more = app.features.length - 2;

  return (
    <article
      aria-labelledby={nameId}
      data-testid="app-card"
      className={`flex h-full flex-col gap-4 rounded-xl border bg-card p-5 text-card-foreground shadow-sm${list ? " md:flex-row md:gap-8" : ""}`}
    >
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        {/* The same height with or without the badge, so titles and prices line up across a row. */}
        <div className="flex min-h-6 items-center justify-between gap-3">
          <p className="text-xs font-semibold uppercase tracking-wide text-primary">{app.industry}</p>
          {app.isPopular && (
            <Badge variant="accent" className="shrink-0">
              Popular
            </Badge>
          )}
        </div>
        <h3 id={nameId} className="text-lg font-bold leading-snug">
          {/* The app's own page: every feature, the four prices, reviews and related apps. */}
          <a
            href={`/apps/${app.slug}`}
            className="rounded-sm underline-offset-4 hover:text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {app.name}
          </a>
        </h3>
        <p className={list ? "text-sm text-muted-foreground" : "line-clamp-3 text-sm text-muted-foreground"}>{app.description}</p>

        {preview ? (
          <>
            <p className="flex flex-wrap items-center gap-x-1.5 text-sm">
              <Star />
              <span className="font-semibold">5.0</span>
              <span className="text-muted-foreground">({app.reviews} reviews)</span>
            </p>

            <figure className="rounded-lg bg-muted px-3 py-2 text-sm">
              <blockquote className="line-clamp-2 italic text-foreground">“{preview.review}”</blockquote>
              <figcaption className="mt-1 flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-muted-foreground">
                <span>
                  {preview.name}, {preview.company}
                </span>
                <a
                  href={reviewsHref}
                  className="rounded-sm font-semibold text-primary underline underline-offset-2 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  onClick={(e) => {
                    if (!isPlainClick(e)) return;
                    e.preventDefault();
                    onOpenReviews(app);
                  }}
                >
                  View all reviews<span className="sr-only"> for {app.name}</span>
                </a>
              </figcaption>
            </figure>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">No reviews yet</p>
        )}

        <ul className={FEATURES}>
          {app.features.slice(0, 2).map((f) => (
            <li key={f}>{f}</li>
          ))}
          {more > 0 && <li className="list-none text-muted-foreground">+{more} more</li>}
        </ul>
      </div>

      <div
        className={`mt-auto flex flex-col gap-3 border-t pt-4${list ? " md:mt-0 md:w-64 md:shrink-0 md:border-l md:border-t-0 md:pl-8 md:pt-0" : ""}`}
      >
        <p className="text-sm text-muted-foreground">
          Delivery:{" "}
          <span className="font-semibold text-foreground" data-testid="app-delivery">
            {quote.delivery}
          </span>
        </p>
        <div>
          <p className="text-3xl font-extrabold tracking-tight">
            <span className="sr-only">{APP_TAB_INFO[tab].label} price: </span>
            <span data-testid="app-price">{quote.display}</span>
          </p>
          <p className="text-sm font-medium text-emerald-800">3-day free trial included</p>
        </div>

        <details className="group rounded-lg border">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-semibold hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
            <span className="group-open:hidden">Insights</span>
            <span className="hidden group-open:inline">Hide</span>
            <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden />
          </summary>
          <div className="space-y-3 border-t px-3 py-3 text-sm">
            <div>
              <h4 className="font-semibold">What's Included</h4>
              <ul className={`${FEATURES} mt-1.5`}>
                {app.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted-foreground">Delivery time</dt>
              <dd className="font-medium">{app.deliveryTime}</dd>
              <dt className="text-muted-foreground">Industry focus</dt>
              <dd className="font-medium">{app.industry}</dd>
            </dl>
          </div>
        </details>

        <TrialForm
          appId={app.id}
          tab={tab}
          signedIn={signedIn}
          error={trialError}
          onSubmit={(e) => {
            e.preventDefault();
            onStartTrial(app);
          }}
        >
          <Button type="submit" className="w-full" disabled={busy} aria-describedby={nameId}>
            {processing ? "Processing..." : "Start 3-Day Trial"}
          </Button>
        </TrialForm>
      </div>
    </article>
  );
});
