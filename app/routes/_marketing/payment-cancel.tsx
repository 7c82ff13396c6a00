import { CircleX, House, RotateCcw } from "lucide-react";
import { Link } from "react-router";
import { BUTTON, cx } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/payment-cancel";
import { pageCacheHandle } from "~/lib/page-cache";
import { paymentCancelRetryPath } from "~/server/billing/checkout-paths.server";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Payment Cancelled",
    description: "Your payment was cancelled and you have not been charged.",
    path: "/payment-cancel",
    noindex: true,
  });

/**
 * A package checkout's cancel address carries the packages page as the buyer left it (`retry`, built
 * by the server from the order's validated choices); Try Again goes back there. The value is rebuilt
 * from known fields only, so the link is always this site's /packages page.
 */
export function loader({ request }: Route.LoaderArgs) {
  return { retry: paymentCancelRetryPath(new URL(request.url).searchParams.get("retry")) };
}

export default function PaymentCancel({ loaderData }: Route.ComponentProps) {
  return (
    <div className="bg-muted">
      <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-2xl border bg-card p-8 text-center shadow-sm sm:p-10">
          <span className="mx-auto grid size-16 place-items-center rounded-full bg-amber-100 text-amber-800">
            <CircleX className="size-9" aria-hidden />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight">Payment Cancelled</h1>
          <p className="mt-3 text-muted-foreground">
            Your checkout was cancelled and you have not been charged. You can pick up where you left off at any time.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to={loaderData.retry} className={cx(BUTTON.lg, BUTTON.primary)}>
              <RotateCcw aria-hidden />
              Try Again
            </Link>
            <Link to="/" className={cx(BUTTON.lg, BUTTON.outline)}>
              <House aria-hidden />
              Back to Home
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}
