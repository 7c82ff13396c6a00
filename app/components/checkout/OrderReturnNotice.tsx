import { LayoutDashboard, LogIn, SearchX, Store } from "lucide-react";
import { Link } from "react-router";
import { BUTTON, cx } from "~/components/marketing/Section";

/**
 * What a checkout return page (/payment-success, /distributor-success) shows instead of an order it
 * cannot confirm (docs/decisions/0037-return-pages-confirm-real-orders.md): no order of the
 * signed-in customer has that id (404), or the visitor is signed out and the order is shown only to
 * its owner. Neither says whether such an order exists, nor repeats the id.
 */
export const RETURN_NOTICE = {
  notFound: {
    title: "Order Not Found",
    heading: "Order not found",
    text: "We could not find this order on your account. Your purchases are on your dashboard.",
  },
  signIn: {
    title: "Sign In to See Your Order",
    heading: "Sign in to see your order",
    text: "Your order is shown only to the account that placed it. Sign in and we will bring you back to this page.",
  },
} as const;

export type ReturnNoticeKind = keyof typeof RETURN_NOTICE;

export function OrderReturnNotice({ kind, signInHref }: { kind: ReturnNoticeKind; signInHref?: string }) {
  const { heading, text } = RETURN_NOTICE[kind];
  const Icon = kind === "signIn" ? LogIn : SearchX;
  return (
    <div className="bg-muted">
      <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-2xl border bg-card p-8 text-center shadow-sm sm:p-10" data-testid={`order-${kind}`}>
          <span className="mx-auto grid size-16 place-items-center rounded-full bg-secondary text-primary">
            <Icon className="size-9" aria-hidden />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight">{heading}</h1>
          <p className="mt-3 text-muted-foreground">{text}</p>
          <nav aria-label="Where to go next" className="mt-8 grid grid-cols-1 gap-3 sm:grid-cols-2">
            {kind === "signIn" && signInHref ? (
              <Link to={signInHref} className={cx(BUTTON.lg, BUTTON.primary, "w-full")}>
                <LogIn aria-hidden />
                Sign In
              </Link>
            ) : (
              <Link to="/dashboard" className={cx(BUTTON.lg, BUTTON.primary, "w-full")}>
                <LayoutDashboard aria-hidden />
                Go to Dashboard
              </Link>
            )}
            <Link to="/apps" className={cx(BUTTON.lg, BUTTON.outline, "w-full")}>
              <Store aria-hidden />
              Browse Apps
            </Link>
          </nav>
        </div>
      </div>
    </div>
  );
}
