import { X } from "lucide-react";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import type { CatalogueApp } from "~/catalogue/apps";
import type { AppPricingTab } from "~/catalogue/pricing";
import { allReviews, refreshReviews, REVIEWS_REFRESH_MS, REVIEWS_SHOWN, type Review } from "~/catalogue/reviews";
import { AppPageLink, ReviewsBody, TrialCallToAction } from "./ReviewsBody";
import { TrialForm } from "./TrialForm";
import { useHydrated } from "~/lib/use-hydrated";

const ReviewsModal = lazy(() => import("./ReviewsModal"));

interface ReviewsDialogProps {
  app: CatalogueApp;
  /** The pricing tab on screen: the trial button starts that checkout. */
  tab: AppPricingTab;
  /** The page without `?reviews`: the close link when JavaScript is off. */
  closeHref: string;
  /** Decides what the trial button does before hydration (TrialForm). */
  signedIn: boolean;
  /** This app's failed no-JavaScript checkout, if any. */
  trialError: string | null;
  onClose(): void;
  onStartTrial(app: CatalogueApp): void;
}

/**
 * 'Customer Reviews for {app}' (spec sections 2 and 4). While open, every 15 s three entries are
 * swapped for others from the app's pool, newest first ('Just now', then 1-60 minutes ago).
 *
 * A Radix dialog renders through a portal, which does not exist on the server; so the server (and
 * the first client render, to match it) draws the same content as a static modal with a close
 * link, which also stands in while the Radix module loads. Mount it with `key={app.id}`.
 */
export function ReviewsDialog({ app, tab, closeHref, signedIn, trialError, onClose, onStartTrial }: ReviewsDialogProps) {
  const hydrated = useHydrated();
  // Exactly the app's count of reviews: the refresh and the full list show no review it leaves out.
  const pool = useMemo(() => allReviews(app), [app]);
  const [reviews, setReviews] = useState(() => pool.slice(0, REVIEWS_SHOWN));
  // While the customer reads the full list, it stays as it is: no entry moves under their eyes.
  const [readingAll, setReadingAll] = useState(false);
  const earlier = useMemo(() => {
    const shownIds = new Set(reviews.map((r) => r.id));
    return pool.filter((r) => !shownIds.has(r.id));
  }, [pool, reviews]);

  useEffect(() => {
    if (!hydrated || readingAll) return;
    const id = window.setInterval(() => setReviews((shown) => refreshReviews(shown, pool)), REVIEWS_REFRESH_MS);
    return () => window.clearInterval(id);
  }, [hydrated, pool, readingAll]);

  const title = `Customer Reviews for ${app.name}`;
  const subtitle = `What ${app.industry} teams say after putting ${app.name} to work.`;
  // What both presentations show; the static one closes by link, the modal by callback.
  const shown = { app, tab, title, subtitle, reviews, earlier, signedIn, trialError };
  const fallback = (
    <StaticReviewsDialog {...shown} closeHref={closeHref} readingAll={readingAll} onReadAllToggle={setReadingAll} />
  );
  if (!hydrated) return fallback;
  return (
    <Suspense fallback={fallback}>
      <ReviewsModal
        {...shown}
        readingAll={readingAll}
        onReadAllToggle={setReadingAll}
        onClose={onClose}
        onStartTrial={onStartTrial}
      />
    </Suspense>
  );
}

function StaticReviewsDialog({
  app,
  tab,
  title,
  subtitle,
  reviews,
  earlier,
  closeHref,
  readingAll,
  onReadAllToggle,
  signedIn,
  trialError,
}: {
  app: CatalogueApp;
  tab: AppPricingTab;
  title: string;
  subtitle: string;
  reviews: Review[];
  earlier: Review[];
  closeHref: string;
  readingAll: boolean;
  onReadAllToggle(open: boolean): void;
  signedIn: boolean;
  trialError: string | null;
}) {
  return (
    <>
      <div className="fixed inset-0 z-50 bg-black/60" />
      <dialog
        open
        aria-labelledby="reviews-dialog-title"
        aria-describedby="reviews-dialog-subtitle"
        className="fixed left-1/2 top-1/2 z-50 m-0 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-background p-6 text-foreground shadow-lg"
      >
        <div className="flex flex-col gap-1.5 pr-6 text-left">
          <h2 id="reviews-dialog-title" className="text-lg font-semibold leading-tight">
            {title}
          </h2>
          <p id="reviews-dialog-subtitle" className="text-sm text-muted-foreground">
            {subtitle}
          </p>
        </div>
        <ReviewsBody app={app} reviews={reviews} earlier={earlier} readingAll={readingAll} onReadAllToggle={onReadAllToggle} />
        <AppPageLink app={app} />
        <TrialForm appId={app.id} tab={tab} signedIn={signedIn} error={trialError}>
          <TrialCallToAction tab={tab} />
        </TrialForm>
        <a
          href={closeHref}
          className="absolute right-4 top-4 rounded-sm opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <X className="size-4" aria-hidden />
          <span className="sr-only">Close</span>
        </a>
      </dialog>
    </>
  );
}
