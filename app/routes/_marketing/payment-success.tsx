import {
  BookOpen,
  CircleCheck,
  CircleX,
  Clock,
  LayoutDashboard,
  RefreshCw,
  RotateCcw,
  Store,
  Video,
  type LucideIcon,
} from "lucide-react";
import { Fragment } from "react";
import { data, Link } from "react-router";
import { z } from "zod";
import { signInPath } from "~/lib/auth-messages";
import { OrderReturnNotice, RETURN_NOTICE } from "~/components/checkout/OrderReturnNotice";
import { BUTTON, cx } from "~/components/marketing/Section";
import { formatDollars } from "~/catalogue/pricing";
import { seo } from "~/lib/seo";
import { getUser } from "~/server/auth/session.server";
import { capturesAfterTrial, dueToday } from "~/server/billing/due-today.server";
import { getOrderForUser, tabLabel } from "~/server/billing/list-orders.server";
import { db } from "~/server/db/client.server";
import type { OrderRow } from "~/server/db/schema";
import { usePendingOrderSync } from "~/components/checkout/use-pending-order-sync";
import type { Route } from "./+types/payment-success";

type OrderStatus = "Paid" | "Trial" | "Pending" | "Declined" | "Canceled";

/** The status in words, next to the heading's (never colour alone). */
const STATUS_LABEL: Record<OrderStatus, string> = {
  Paid: "Paid",
  Trial: "Free trial started",
  Pending: "Pending",
  Declined: "Declined",
  Canceled: "Canceled",
};

/**
 * What the page says for the signed-in customer's own order, by its status. Only a paid order, or a
 * subscription whose free trial has started, is 'confirmed'; an id that is not the viewer's order
 * gets the not-found notice and a signed-out visitor the sign-in one (OrderReturnNotice).
 */
const STATUS_COPY: Record<OrderStatus, { title: string; heading: string; text: string; icon: LucideIcon; tone: string }> = {
  Paid: {
    title: "Payment Successful",
    heading: "Payment Successful!",
    text: "Thank you for your purchase. Your order is confirmed.",
    icon: CircleCheck,
    tone: "bg-emerald-100 text-emerald-700",
  },
  // Nothing was charged today: saying 'Payment Successful' would claim a payment that has not happened.
  Trial: {
    title: "Free Trial Started",
    heading: "Your free trial has started!",
    text: "Thank you for your order. Your order is confirmed, and nothing is charged until your free trial ends.",
    icon: CircleCheck,
    tone: "bg-emerald-100 text-emerald-700",
  },
  // The page does not poll and no mail is sent when the payment clears, so it asks for a refresh,
  // as /distributor-success does for its pending orders (docs/decisions/0009).
  Pending: {
    title: "Confirming Your Payment",
    heading: "We're confirming your payment",
    text: "Thank you, we have received your order and are still confirming your payment. Refresh this page in a moment.",
    icon: Clock,
    tone: "bg-amber-100 text-amber-800",
  },
  Declined: {
    title: "Payment Not Completed",
    heading: "Payment not completed",
    text: "Your payment was declined, so this order has not been paid. You can try again with another card.",
    icon: CircleX,
    tone: "bg-red-100 text-red-700",
  },
  // 'Canceled' is also an ended subscription that was once paid, so this does not say nothing was charged.
  Canceled: {
    title: "Order Canceled",
    heading: "Order canceled",
    text: "This order was canceled and is not active. You can start a new one at any time.",
    icon: CircleX,
    tone: "bg-red-100 text-red-700",
  },
};

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const copy =
    loaderData?.view === "order"
      ? STATUS_COPY[loaderData.order.status]
      : RETURN_NOTICE[loaderData?.view === "sign-in" ? "signIn" : "notFound"];
  return seo(matches, { title: copy.title, description: copy.text, path: "/payment-success", noindex: true });
};

/** No order of the viewer's has this id (or there is no id): the document answers 404. */
const notFound = () => data({ view: "not-found" as const }, { status: 404 });

export async function loader({ request }: Route.LoaderArgs) {
  // A checkout session id as payment providers issue them (e.g. 'cs_test_…'); anything else is no order.
  // The schema lives inside the loader so zod stays out of the browser bundle.
  const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);
  const parsed = sessionId.safeParse(new URL(request.url).searchParams.get("session_id"));
  if (!parsed.success) return notFound();
  const orderId = parsed.data;
  const user = await getUser(request);
  // Signed out: the order is its owner's to see; signing in comes back here. Whether the id is an
  // order at all is not said (docs/decisions/0037-return-pages-confirm-real-orders.md).
  if (!user) return { view: "sign-in" as const, signInHref: signInPath(`/payment-success?session_id=${orderId}`) };
  const row = await getOrderForUser(db(), user.id, orderId);
  if (!row) return notFound();
  const status = statusOf(row);
  return {
    view: "order" as const,
    orderId,
    order: {
      itemName: row.itemName,
      rows: detailRows(row),
      amount: `${formatDollars(row.amount)}${row.isSubscription ? "/month" : ""}`,
      /** What the first payment took, when it differs from the amount (a subscription's free trial). */
      dueToday:
        dueToday(row) !== row.amount && !(capturesAfterTrial(row) && row.status === "paid") ? formatDollars(dueToday(row)) : null,
      trialDays: row.trialDays,
      isSubscription: row.isSubscription,
      status,
      statusLabel: STATUS_LABEL[status],
      /** Where a new attempt starts: the page the item was picked on. */
      retryPath: row.kind === "app" ? "/apps" : "/packages",
    },
  };
}

function statusOf(row: Pick<OrderRow, "status" | "amount" | "isSubscription" | "trialDays" | "setupFee">): OrderStatus {
  // A one-time build's trial: the card is held, nothing charged until the trial ends.
  if (row.status === "authorized" || row.status === "capturing") return "Trial";
  // The held payment could not be taken when the trial ended: nothing was charged or granted.
  if (row.status === "capture_failed") return "Declined";
  if (row.status === "paid") return row.isSubscription && row.trialDays > 0 && dueToday(row) === 0 ? "Trial" : "Paid";
  if (row.status === "canceled") return "Canceled";
  // 'failed': the provider never opened the checkout, so nothing is on its way either.
  if (row.status === "declined" || row.status === "failed") return "Declined";
  return "Pending";
}

const KIND_LABELS: Record<string, string> = {
  plan: "Monthly plan",
  addons: "Add-ons",
  scaling: "Scaling plan",
  distributor: "Distributor program",
};

/** The order's options as label/value rows: an app's pricing tab; a package's payment, delivery and timeline. */
function detailRows(row: OrderRow): { label: string; value: string; testId: string }[] {
  if (row.kind === "app") return [{ label: "Option", value: tabLabel(row.pricingTab), testId: "order-option" }];
  if (row.kind === "package") {
    const rush = row.details.rush === true;
    return [
      {
        label: "Option",
        value: row.details.mode === "monthly" ? "Monthly payment" : "One-time payment",
        testId: "order-option",
      },
      { label: "Delivery", value: rush ? "Rush" : "Standard", testId: "order-delivery" },
      {
        label: "Timeline",
        value: typeof row.details.timeline === "string" ? row.details.timeline : rush ? "24-48 hours" : "5-7 days",
        testId: "order-timeline",
      },
    ];
  }
  return [{ label: "Option", value: KIND_LABELS[row.kind] ?? row.kind, testId: "order-option" }];
}

const NEXT = [
  { to: "/dashboard", label: "Go to Dashboard", icon: LayoutDashboard, primary: true },
  { to: "/how-it-works", label: "How It Works", icon: BookOpen, primary: false },
  { to: "/live-training", label: "Join Live Training", icon: Video, primary: false },
  { to: "/apps", label: "Browse Apps", icon: Store, primary: false },
];

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const pending = loaderData.view === "order" && loaderData.order.status === "Pending";
  usePendingOrderSync(loaderData.view === "order" ? loaderData.orderId : null, pending);
  if (loaderData.view === "not-found") return <OrderReturnNotice kind="notFound" />;
  if (loaderData.view === "sign-in") return <OrderReturnNotice kind="signIn" signInHref={loaderData.signInHref} />;
  const { order, orderId } = loaderData;
  const { status } = order;
  const { heading, text, icon: StatusIcon, tone } = STATUS_COPY[status];
  return (
    <div className="bg-muted">
      <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6 sm:py-24">
        <div className="rounded-2xl border bg-card p-8 text-center shadow-sm sm:p-10">
          <span className={cx("mx-auto grid size-16 place-items-center rounded-full", tone)}>
            <StatusIcon className="size-9" aria-hidden />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight">{heading}</h1>
          <p className="mt-3 text-muted-foreground">{text}</p>
          {status === "Pending" && (
            <div className="mt-6">
              <Link to={`/payment-success?session_id=${encodeURIComponent(orderId)}`} className={cx(BUTTON.lg, BUTTON.outline)}>
                <RefreshCw aria-hidden />
                Refresh Status
              </Link>
            </div>
          )}
          {(status === "Declined" || status === "Canceled") && (
            <div className="mt-6">
              <Link to={order.retryPath} className={cx(BUTTON.lg, BUTTON.primary)}>
                <RotateCcw aria-hidden />
                Try Again
              </Link>
            </div>
          )}
          <dl className="mx-auto mt-6 inline-flex max-w-full flex-wrap items-baseline justify-center gap-x-2 rounded-lg bg-muted px-4 py-3 text-sm">
            <dt className="font-semibold">Order ID</dt>
            <dd className="break-all font-mono" data-testid="order-id">
              {orderId}
            </dd>
          </dl>
          <dl
            className="mx-auto mt-4 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg border px-4 py-3 text-left text-sm"
            data-testid="order-summary"
          >
            <dt className="text-muted-foreground">Item</dt>
            <dd className="font-semibold">{order.itemName}</dd>
            {order.rows.map((r) => (
              <Fragment key={r.label}>
                <dt className="text-muted-foreground">{r.label}</dt>
                <dd data-testid={r.testId}>{r.value}</dd>
              </Fragment>
            ))}
            <dt className="text-muted-foreground">Amount</dt>
            <dd className="font-semibold" data-testid="order-amount">
              {order.amount}
            </dd>
            {order.dueToday !== null && (
              <>
                <dt className="text-muted-foreground">Paid today</dt>
                <dd data-testid="order-due-today">
                  {order.dueToday}
                  {order.trialDays > 0 ? ` (${order.trialDays}-day free trial, then ${order.amount})` : ""}
                </dd>
              </>
            )}
            <dt className="text-muted-foreground">Status</dt>
            <dd className="font-semibold" data-testid="order-status">
              {order.statusLabel}
            </dd>
          </dl>
          <nav aria-label="Next steps" className="mt-8 grid grid-cols-1 gap-3 sm:grid-cols-2">
            {NEXT.map(({ to, label, icon: Icon, primary }) => (
              <Link key={to} to={to} className={cx(BUTTON.lg, primary ? BUTTON.primary : BUTTON.outline, "w-full")}>
                <Icon aria-hidden />
                {label}
              </Link>
            ))}
          </nav>
        </div>
      </div>
    </div>
  );
}
