import { BadgeCheck, ChevronDown, ThumbsUp } from "lucide-react";
import type { CatalogueApp } from "~/catalogue/apps";
import type { AppPricingTab } from "~/catalogue/pricing";
import { initials, type Review } from "~/catalogue/reviews";
import { Button } from "~/components/ui/button";
import { Stars } from "./Stars";

/**
 * The reviews dialog's content, shared by its static (no-JavaScript) and its Radix rendering: the
 * latest reviews, then every other one behind 'Read all {n} reviews' (a native disclosure, so it
 * opens without JavaScript too), so the count in the header is what a customer can read.
 */
export function ReviewsBody({
  app,
  reviews,
  earlier,
  readingAll,
  onReadAllToggle,
}: {
  app: CatalogueApp;
  reviews: Review[];
  /** The app's other reviews, oldest last. */
  earlier: Review[];
  /**
   * Whether the full list is open, kept by the dialog: the static rendering stands in while the
   * interactive one loads, and a list opened meanwhile stays open when it arrives.
   */
  readingAll?: boolean;
  onReadAllToggle?: (open: boolean) => void;
}) {
  if (reviews.length === 0) return <p className="rounded-lg bg-muted px-4 py-3 text-sm text-muted-foreground">No reviews yet.</p>;
  return (
    <>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-muted px-4 py-3">
        <Stars className="h-5 w-25" />
        <span className="text-xl font-bold">5.0</span>
        <span className="text-sm text-muted-foreground">{app.reviews} Verified Reviews</span>
      </div>
      <ul className="flex flex-col gap-3" aria-label="Latest reviews" data-testid="reviews-list">
        {reviews.map((r) => (
          <ReviewItem key={r.id} review={r} />
        ))}
      </ul>
      {earlier.length > 0 ? (
        <details
          className="group rounded-lg border"
          data-testid="all-reviews"
          open={readingAll}
          onToggle={(event) => onReadAllToggle?.(event.currentTarget.open)}
        >
          <summary
            // Opened by the dialog's state at the press itself (a click, or Enter or Space on the
            // summary): the toggle event comes a task later, and if the static dialog has been
            // swapped for the interactive one by then, it reaches no mounted component and the list
            // opened meanwhile arrives closed. onToggle still follows other ways of opening it.
            onClick={
              readingAll !== undefined && onReadAllToggle
                ? (event) => {
                    event.preventDefault();
                    onReadAllToggle(!readingAll);
                  }
                : undefined
            }
            className="flex min-h-11 cursor-pointer items-center justify-between gap-3 rounded-lg px-4 py-2 font-semibold hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span>
              Read all {app.reviews} reviews
              <span className="font-normal text-muted-foreground"> ({earlier.length} more)</span>
            </span>
            <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180" aria-hidden />
          </summary>
          <ul className="flex flex-col gap-3 px-3 pb-3" aria-label="Earlier reviews" data-testid="earlier-reviews">
            {earlier.map((r) => (
              <ReviewItem key={r.id} review={r} />
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

function ReviewItem({ review: r }: { review: Review }) {
  return (
    <li className="rounded-lg border p-4">
      <div className="flex items-start gap-3">
        <span
          aria-hidden
          className="grid size-10 shrink-0 place-items-center rounded-full bg-secondary text-sm font-bold text-secondary-foreground"
        >
          {initials(r.name)}
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-semibold">{r.name}</span>
            <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
              <BadgeCheck className="size-3.5" aria-hidden />
              Verified
            </span>
          </p>
          <p className="text-sm text-muted-foreground">{r.company}</p>
        </div>
        <Stars className="hidden h-3.5 w-[4.375rem] sm:block" />
      </div>
      <p className="mt-3 text-sm leading-relaxed">{r.review}</p>
      <p className="mt-3 flex items-center justify-between gap-3 text-xs text-muted-foreground">
        <span data-testid="review-time">{r.timeAgo}</span>
        <span className="inline-flex items-center gap-1">
          <ThumbsUp className="size-3.5" aria-hidden />
          {r.helpful} helpful
        </span>
      </p>
    </li>
  );
}

/**
 * The dialog's closing call to action, inside a TrialForm (what a click does before hydration: Sign
 * In when signed out, the checkout when signed in). Only the Monthly tab
 * starts without a payment (its trial delays the first charge, ADR 0007); a one-time build is paid
 * at checkout, so for those tabs the line promises no payment-free start.
 */
export function TrialCallToAction({ tab }: { tab: AppPricingTab }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg border border-primary/20 bg-secondary p-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="font-semibold text-secondary-foreground">Start your 3-day free trial</p>
        <p className="text-sm text-secondary-foreground/90">
          {tab === "monthly" ? "No payment today. Cancel anytime." : "Secure checkout. 3-day free trial included."}
        </p>
      </div>
      <Button type="submit" className="shrink-0">
        Start 3-Day Trial
      </Button>
    </div>
  );
}

/** From the reviews dialog to the app's own page (every feature, the four prices, related apps). */
export function AppPageLink({ app }: { app: Pick<CatalogueApp, "name" | "slug"> }) {
  return (
    <a
      href={`/apps/${app.slug}`}
      className="self-start rounded-sm text-sm font-semibold text-primary underline underline-offset-2 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      See features and prices<span className="sr-only"> of {app.name}</span>
    </a>
  );
}
