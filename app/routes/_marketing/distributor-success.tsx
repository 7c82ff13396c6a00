import {
  CircleCheck,
  CircleX,
  Clock,
  DollarSign,
  GraduationCap,
  MapPin,
  RefreshCw,
  RotateCcw,
  type LucideIcon,
} from "lucide-react";
import { data, Link, useSearchParams } from "react-router";
import { DISTRIBUTOR_PROGRAM } from "~/catalogue/plans";
import { formatDollars } from "~/catalogue/pricing";
import { signInPath } from "~/lib/auth-messages";
import { OrderReturnNotice, RETURN_NOTICE } from "~/components/checkout/OrderReturnNotice";
import { BUTTON, cx } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import { getUser } from "~/server/auth/session.server";
import { SESSION_ID_PATTERN } from "~/server/billing/checkout-paths.server";
import { getOrderForUser } from "~/server/billing/list-orders.server";
import { db } from "~/server/db/client.server";
import { usePendingOrderSync } from "~/components/checkout/use-pending-order-sync";
import type { Route } from "./+types/distributor-success";

/** Where a new attempt starts. */
const RETRY_PATH = "/distributors";

/** The buyer's own order that was not paid: its payment failed (declined, or the checkout failed) or it was canceled. */
type Ended = "declined" | "canceled";

interface DistributorOrder {
  businessName: string;
  fullName: string;
  email: string;
  setupFee: string;
  monthly: string;
  trialDays: number;
}

/**
 * The signed-in buyer's own distributor order: paid (`order`), still pending, or ended (what became
 * of it), so the page says 'Payment Confirmed' only for a paid one. Any other id is not found, and a
 * signed-out visitor is asked to sign in (OrderReturnNotice).
 */
type LoaderData =
  | { view: "not-found" }
  | { view: "sign-in"; signInHref: string }
  | { view: "paid"; order: DistributorOrder }
  | { view: "pending" }
  | { view: "ended"; ended: Ended };

/** No distributor order of the viewer's has this id (or there is no id): the document answers 404. */
const notFound = () => data<LoaderData>({ view: "not-found" }, { status: 404 });

/** Heading and subtitle of the page for each state of the buyer's own order (as /payment-success words them). */
const STATE_COPY = {
  pending: {
    title: "Confirming Your Payment",
    heading: "We're confirming your payment",
    text: "Thank you, we have received your order and are still confirming your payment. Refresh this page in a moment.",
  },
  declined: {
    title: "Payment Not Completed",
    heading: "Payment not completed",
    text: "Your payment was not completed, so you have not joined the AI Distributor Program yet. You can try again with another card.",
  },
  canceled: {
    title: "Order Canceled",
    heading: "Order canceled",
    text: "This order was canceled and is not active. You can join the AI Distributor Program again at any time.",
  },
} as const;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const view = loaderData?.view ?? "not-found";
  const state =
    view === "paid"
      ? null
      : view === "pending"
        ? STATE_COPY.pending
        : view === "ended" && loaderData?.view === "ended"
          ? STATE_COPY[loaderData.ended]
          : RETURN_NOTICE[view === "sign-in" ? "signIn" : "notFound"];
  return seo(matches, {
    title: state?.title ?? "Welcome to the AI Distributor Program",
    description:
      state?.text ??
      "Your distributor payment is confirmed. Here is what happens next: training access, territory assignment and earning.",
    path: "/distributor-success",
    noindex: true,
  });
};

/**
 * Order details only for the signed-in owner of a distributor order; an unknown session, an order of
 * another user or of another kind is not found (nothing is revealed about it), and a signed-out
 * visitor is asked to sign in and comes back here. The owner's order that is not paid says so: still
 * being confirmed, not completed, or canceled.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const sessionId = url.searchParams.get("session_id");
  if (!sessionId || !SESSION_ID_PATTERN.test(sessionId)) return notFound();
  const user = await getUser(request);
  if (!user)
    return { view: "sign-in", signInHref: signInPath(`/distributor-success?session_id=${sessionId}`) } satisfies LoaderData;
  const row = await getOrderForUser(db(), user.id, sessionId);
  if (!row || row.kind !== "distributor") return notFound();
  if (row.status === "pending") return { view: "pending" } satisfies LoaderData;
  if (row.status === "canceled") return { view: "ended", ended: "canceled" } satisfies LoaderData;
  // 'declined', or 'failed' (the provider could not open the checkout): nothing was paid.
  if (row.status !== "paid") return { view: "ended", ended: "declined" } satisfies LoaderData;
  const text = (key: string) => (typeof row.details[key] === "string" ? (row.details[key] as string) : "");
  return {
    view: "paid",
    order: {
      businessName: text("businessName"),
      fullName: text("fullName"),
      email: text("email"),
      setupFee: formatDollars(row.setupFee),
      monthly: `${formatDollars(row.amount)}/month`,
      trialDays: row.trialDays,
    },
  } satisfies LoaderData;
}

interface Step {
  icon: LucideIcon;
  title: string;
  text: string;
}

const STEPS: Step[] = [
  // The spec's 'setup fee and first month processed', worded for the order by stepsFor.
  { icon: CircleCheck, title: "Payment Confirmed", text: "Your setup fee and first month have been processed." },
  {
    icon: GraduationCap,
    title: "Training Access",
    text: `You will receive your training portal login by email within ${DISTRIBUTOR_PROGRAM.trainingLoginHours} hours.`,
  },
  {
    icon: MapPin,
    title: "Territory Assignment",
    text: `Our team will contact you about your exclusive territory within ${DISTRIBUTOR_PROGRAM.territoryContactHours} hours.`,
  },
  {
    icon: DollarSign,
    title: "Start Earning",
    text: "Complete your training, meet your clients and start earning as an AI distributor.",
  },
];

/** Step 1 while the buyer's own payment is still being confirmed: nothing is said to be processed yet. */
const PENDING_STEP: Step = {
  icon: Clock,
  title: "Confirming Payment",
  text: "We are still confirming your payment. Once it is confirmed, the steps below follow.",
};

function stepsFor(order: DistributorOrder | null): Step[] {
  if (!order) return [PENDING_STEP, ...STEPS.slice(1)];
  const paid =
    order.trialDays > 0
      ? `Your ${order.setupFee} setup fee has been processed. Your ${order.monthly} membership starts after your ${order.trialDays}-day free trial.`
      : `Your ${order.setupFee} setup fee and first month (${order.monthly}) have been processed.`;
  return STEPS.map((step, i) => (i === 0 ? { ...step, text: paid } : step));
}

export default function DistributorSuccess({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id");
  const pending = loaderData.view === "pending";
  usePendingOrderSync(sessionId, pending);
  if (loaderData.view === "not-found") return <OrderReturnNotice kind="notFound" />;
  if (loaderData.view === "sign-in") return <OrderReturnNotice kind="signIn" signInHref={loaderData.signInHref} />;
  const order = loaderData.view === "paid" ? loaderData.order : null;
  const ended = loaderData.view === "ended" ? loaderData.ended : undefined;
  const state = pending ? STATE_COPY.pending : ended ? STATE_COPY[ended] : null;
  const StateIcon = pending ? Clock : ended ? CircleX : CircleCheck;
  const tone = pending ? "bg-amber-100 text-amber-800" : ended ? "bg-red-100 text-red-700" : "bg-emerald-100 text-emerald-700";
  // A payment that did not go through has no next steps to promise.
  const steps = ended ? [] : stepsFor(order);
  return (
    <div className="bg-muted">
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="text-center">
          <span className={cx("mx-auto grid size-16 place-items-center rounded-full", tone)}>
            <StateIcon className="size-9" aria-hidden />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
            {state ? state.heading : "Welcome to the AI Distributor Program!"}
          </h1>
          <p className="mt-4 text-lg text-muted-foreground">
            {state
              ? state.text
              : `${order?.fullName ? `You are all set, ${order.fullName}. ` : "You are all set. "}Here is what happens next.`}
          </p>
          {pending && sessionId && (
            <div className="mt-6">
              <Link
                to={`/distributor-success?session_id=${encodeURIComponent(sessionId)}`}
                className={cx(BUTTON.lg, BUTTON.outline)}
              >
                <RefreshCw aria-hidden />
                Refresh Status
              </Link>
            </div>
          )}
          {ended && (
            <div className="mt-6">
              <Link to={RETRY_PATH} className={cx(BUTTON.lg, BUTTON.primary)}>
                <RotateCcw aria-hidden />
                Try Again
              </Link>
            </div>
          )}
        </div>
        {order && (
          <dl
            className="mx-auto mt-8 grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 rounded-2xl border bg-card px-5 py-4 text-sm shadow-sm"
            data-testid="distributor-order"
          >
            <dt className="text-muted-foreground">Business</dt>
            <dd className="font-semibold break-words" data-testid="distributor-business">
              {order.businessName}
            </dd>
            <dt className="text-muted-foreground">Email</dt>
            <dd className="break-all" data-testid="distributor-email">
              {order.email}
            </dd>
            <dt className="text-muted-foreground">Plan</dt>
            <dd>
              {order.setupFee} setup + {order.monthly}
            </dd>
          </dl>
        )}
        {steps.length > 0 && (
          <ol className="mt-10 space-y-4">
            {steps.map(({ icon: Icon, title, text }, i) => (
              <li key={title} className="flex gap-4 rounded-2xl border bg-card p-5 shadow-sm">
                <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-secondary text-primary">
                  <Icon className="size-5" aria-hidden />
                </span>
                <div>
                  <h2 className="font-bold">
                    <span className="text-muted-foreground">{i + 1}. </span>
                    {title}
                  </h2>
                  <p className="mt-1 text-muted-foreground">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-10 text-center">
          <Link to="/" className={cx(BUTTON.lg, ended ? BUTTON.outline : BUTTON.primary)}>
            Back to Homepage
          </Link>
        </div>
      </div>
    </div>
  );
}
