import { CircleCheck, DollarSign, GraduationCap, MapPin } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { DISTRIBUTOR_PROGRAM } from "~/catalogue/plans";
import { formatDollars } from "~/catalogue/pricing";
import { BUTTON, cx } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import { getUser } from "~/server/auth/session.server";
import { getOrderForUser, SESSION_ID_PATTERN } from "~/server/billing/checkout.server";
import { db } from "~/server/db/client.server";
import { usePendingOrderSync } from "~/components/checkout/use-pending-order-sync";
import type { Route } from "./+types/distributor-success";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Welcome to the AI Distributor Program",
    description:
      "Your distributor payment is confirmed. Here is what happens next: training access, territory assignment and earning.",
    path: "/distributor-success",
    noindex: true,
  });

/**
 * Order details only for the signed-in owner of a paid distributor order; an unknown session, an
 * order of another user or of another kind gets the generic page (nothing is revealed about it).
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const sessionId = url.searchParams.get("session_id");
  if (!sessionId || !SESSION_ID_PATTERN.test(sessionId)) return { order: null, pending: false };
  const user = await getUser(request);
  const row = user ? await getOrderForUser(db(), user.id, sessionId) : undefined;
  if (!row || row.kind !== "distributor") return { order: null, pending: false };
  if (row.status !== "paid") return { order: null, pending: row.status === "pending" };
  const text = (key: string) => (typeof row.details[key] === "string" ? (row.details[key] as string) : "");
  return {
    order: {
      businessName: text("businessName"),
      fullName: text("fullName"),
      email: text("email"),
      setupFee: formatDollars(row.setupFee),
      monthly: `${formatDollars(row.amount)}/month`,
      trialDays: row.trialDays,
    },
    pending: false,
  };
}

/** The spec's wording, on the page without an order; with the buyer's order the text says what was charged. */
const GENERIC_PAYMENT_TEXT = "Your setup fee and first month have been processed.";

const STEPS = [
  { icon: CircleCheck, title: "Payment Confirmed", text: GENERIC_PAYMENT_TEXT },
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

export default function DistributorSuccess({ loaderData }: Route.ComponentProps) {
  const { order, pending } = loaderData;
  const [params] = useSearchParams();
  usePendingOrderSync(params.get("session_id"), pending);
  const steps = order
    ? STEPS.map((step, i) =>
        i === 0
          ? {
              ...step,
              text:
                order.trialDays > 0
                  ? `Your ${order.setupFee} setup fee has been processed. Your ${order.monthly} membership starts after your ${order.trialDays}-day free trial.`
                  : `Your ${order.setupFee} setup fee and first month (${order.monthly}) have been processed.`,
            }
          : step,
      )
    : STEPS;
  return (
    <div className="bg-muted">
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="text-center">
          <span className="mx-auto grid size-16 place-items-center rounded-full bg-emerald-100 text-emerald-700">
            <CircleCheck className="size-9" aria-hidden />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
            Welcome to the AI Distributor Program!
          </h1>
          <p className="mt-4 text-lg text-muted-foreground">
            {order?.fullName ? `You are all set, ${order.fullName}. ` : "You are all set. "}Here is what happens next.
          </p>
        </div>
        {pending && (
          <p className="mt-8 rounded-xl border border-amber-200 bg-amber-50 p-4 text-center text-amber-950">
            We are still confirming your payment. Refresh this page in a moment.
          </p>
        )}
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
        <div className="mt-10 text-center">
          <Link to="/" className={cx(BUTTON.lg, BUTTON.primary)}>
            Back to Homepage
          </Link>
        </div>
      </div>
    </div>
  );
}
