import { useEffect } from "react";
import { Check, Loader2 } from "lucide-react";
import { data, Form, useActionData, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { BillingActions } from "~/components/dashboard/billing/BillingActions";
import { BillingHistory, type HistoryEntry } from "~/components/dashboard/billing/BillingHistory";
import { PaidSubscriptions } from "~/components/dashboard/billing/PaidSubscriptions";
import {
  BILLING_ERRORS,
  checkoutClick,
  formFailureText,
  later,
  REFRESHED,
  useCheckout,
  useCheckoutReturn,
  useRevalidateOnFocus,
} from "~/components/dashboard/billing/checkout";
import { CheckoutFormError } from "~/components/dashboard/billing/CheckoutFormError";
import { LoadFailed } from "~/components/dashboard/billing/LoadFailed";
import { checkoutFromForm, formText } from "~/server/billing/form-checkout.server";
import { formatCount, formatDollars, PageHeader } from "~/components/dashboard/pages/common";
import { PlanBadge } from "~/components/dashboard/pages/PlanBadge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "~/components/ui/card";
import type { BillingPlan } from "~/catalogue/plans";
import { cn } from "~/lib/utils";
import { requireUser } from "~/server/auth/session.server";
import { RunningTrials } from "~/components/dashboard/billing/RunningTrials";
import { cancelTrial } from "~/server/billing/cancel-trial.server";
import { listOrders, packageDelivery } from "~/server/billing/list-orders.server";
import { historyStatus, listRunningTrials, type RunningTrial } from "~/server/billing/list-trials.server";
import { checkoutProvider } from "~/server/billing/provider.server";
import { currentPlanPricesOfRequest } from "~/server/catalogue/current-plan-prices.server";
import { offersPlanChange } from "~/server/billing/quote-plan-change.server";
import { PLAN_CHANGE_KIND, planChangeAmountText } from "~/server/billing/plan-changes.server";
import { receiptsByOrder } from "~/server/billing/receipts.server";
import { db } from "~/server/db/client.server";
import { log, errorMessage } from "~/server/log.server";
import { subscriptionSummaryOfRequest } from "~/server/trial/request-trial-status.server";
import { LocalDate } from "~/components/dashboard/billing/LocalDate";
import type { Route } from "./+types/billing";

export const meta: Route.MetaFunction = () => [
  { title: "Subscription & Billing | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    const [subscription, orders, trials, receipts, provider, changesPlan, plans] = await Promise.all([
      subscriptionSummaryOfRequest(request, user.id),
      listOrders(db(), user.id, 25),
      listRunningTrials(db(), user.id),
      receiptsByOrder(db(), user.id),
      checkoutProvider(),
      offersPlanChange(db(), user.id),
      currentPlanPricesOfRequest(request),
    ]);
    const history: HistoryEntry[] = orders.map((o) => ({
      id: o.id,
      createdAt: o.createdAt.toISOString(),
      itemName: o.itemName,
      kind: o.kind,
      amount: o.amount,
      setupFee: o.setupFee,
      trialDays: o.trialDays,
      isSubscription: o.isSubscription,
      delivery: packageDelivery(o),
      status: historyStatus(o),
      receipts: receipts.get(o.id) ?? [],
      ...(o.kind === PLAN_CHANGE_KIND ? { amountText: planChangeAmountText(o) } : {}),
    }));
    return {
      subscription,
      history,
      trials,
      // Manage Billing: Stripe's customer portal, or the local provider's page on this site.
      portal: provider.name,
      hasPayments: receipts.size > 0,
      changesPlan,
      // At the prices they sell at now: the checkout charges what the card shows.
      billingPlans: plans.billingPlans,
      loadError: false as const,
    };
  } catch (error) {
    log.error("billing page load failed", { userId: user.id, error: errorMessage(error) });
    return {
      subscription: null,
      history: [] as HistoryEntry[],
      trials: [] as RunningTrial[],
      portal: null,
      hasPayments: false,
      changesPlan: false,
      billingPlans: [] as BillingPlan[],
      loadError: true as const,
    };
  }
}

const actionInput = z.discriminatedUnion("intent", [
  z.strictObject({ intent: z.literal("refresh") }),
  z.strictObject({ intent: z.literal("cancel-trial"), orderId: z.string().min(1).max(100) }),
]);

/**
 * 'refresh' (the no-JavaScript fallback of Refresh status: the loader re-reads after every action),
 * 'cancel-trial' (a one-time build's free trial) and 'checkout' (a plan's Choose button before
 * hydration or without JavaScript, ADR 0016: the plan id only, priced on the server like POST
 * /api/checkout, then a redirect to the checkout in this tab). The local provider's subscriptions
 * are cancelled on /dashboard/billing/manage.
 */
export async function action({ request, url }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "checkout") {
    const planType = formText(form, "planType") ?? "";
    return checkoutFromForm(request, { kind: "plan", planType }, { signInNext: url.pathname, context: { planType } });
  }
  const parsed = actionInput.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return data({ ok: false as const, intent: null, error: "Unknown action", at: Date.now() }, { status: 400 });
  if (parsed.data.intent === "refresh") return data({ ok: true as const, intent: "refresh" as const, at: Date.now() });
  // A one-time build's free trial: the held payment is released and nothing is charged.
  const result = await cancelTrial(db(), user.id, parsed.data.orderId);
  if (!result.ok)
    return data({ ok: false as const, intent: "cancel-trial" as const, code: result.code, at: Date.now() }, { status: 409 });
  return data({ ok: true as const, intent: "cancel-trial" as const, itemName: result.order.itemName, at: Date.now() });
}

export default function BillingPage({ loaderData }: Route.ComponentProps) {
  const { subscription, history, trials, portal, hasPayments, changesPlan, billingPlans, loadError } = loaderData;
  const result = useActionData<typeof action>();
  const { pending, run } = useCheckout("plans");
  const navigation = useNavigation();
  // A subscriber's plan button posts the form (no new tab): the answer is the change's confirmation page.
  const changing =
    navigation.state !== "idle" && navigation.formData?.get("intent") === "checkout" ? navigation.formData.get("planType") : null;
  useRevalidateOnFocus();

  useCheckoutReturn({
    success: "Payment successful",
    successDescription: "Your new plan is active.",
    canceled: "Checkout canceled. You have not been charged.",
  });

  useEffect(() => {
    if (loadError) later(() => toast.error(BILLING_ERRORS.load));
  }, [loadError]);

  // A failed no-JavaScript checkout shows under its button, not as a toast.
  const checkoutFailure = result && !("ok" in result) ? result : null;
  const planError = (type: string) =>
    pending === null && checkoutFailure?.context?.planType === type ? formFailureText(checkoutFailure, "plans") : null;

  useEffect(() => {
    if (!result || !("ok" in result)) return;
    if (result.ok && result.intent === "refresh") toast.success(REFRESHED);
    // A trial's cancel answers in its own card (RunningTrials).
    else if (!result.ok && result.intent !== "cancel-trial") toast.error(result.error);
  }, [result]);

  if (!subscription) {
    return (
      <div className="mx-auto max-w-6xl">
        <PageHeader title="Subscription & Billing" description="Your plan, billing and upgrade options." />
        <LoadFailed message={BILLING_ERRORS.load} />
      </div>
    );
  }

  const currentType = subscription.active ? subscription.planType : null;
  const others = subscription.otherSubscriptions;
  // The dashboard gate's rule (hasActiveSubscription): a plan or tier, or another paid subscription.
  const accountActive = subscription.active || subscription.otherSubscriptionActive;

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Subscription & Billing" description="Your plan, billing and upgrade options." />
      <div className="mb-8 grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-xl font-semibold leading-tight tracking-tight">Current plan</h2>
              <span data-testid="plan-status">
                <PlanBadge active={accountActive} />
              </span>
            </div>
            <CardDescription>What your account is on today.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold" data-testid="current-plan-name">
              {/* 'Free Trial' (the spec's fallback) would contradict the paid subscriptions listed below. */}
              {!subscription.active && others.length > 0 ? "No billing plan" : subscription.planName}
            </p>
            <dl className="mt-3 grid gap-1 text-sm text-muted-foreground">
              {subscription.monthlyPrice !== null ? (
                <div>
                  <dt className="inline">Price: </dt>
                  <dd className="inline" data-testid="current-plan-price">
                    {formatDollars(subscription.monthlyPrice)}/month
                  </dd>
                </div>
              ) : null}
              {subscription.active ? (
                <div>
                  <dt className="inline">Reach limit: </dt>
                  <dd className="inline" data-testid="current-plan-reach">
                    {subscription.reachLimit === null ? "Unlimited contacts" : `${formatCount(subscription.reachLimit)} contacts`}
                  </dd>
                </div>
              ) : null}
              {subscription.currentPeriodEnd ? (
                <div>
                  <dt className="inline">{subscription.cancelAtPeriodEnd ? "Cancels on: " : "Renews on: "}</dt>
                  <dd className="inline" data-testid="current-plan-renewal">
                    <LocalDate iso={subscription.currentPeriodEnd} />
                  </dd>
                </div>
              ) : null}
              {!subscription.active && subscription.trialEndsAt ? (
                <div>
                  <dt className="inline">Trial ends: </dt>
                  <dd className="inline">
                    <LocalDate iso={subscription.trialEndsAt} />
                  </dd>
                </div>
              ) : null}
            </dl>
            {subscription.active && subscription.cancelAtPeriodEnd && subscription.currentPeriodEnd ? (
              <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="cancels-on">
                Cancels on <LocalDate iso={subscription.currentPeriodEnd} />. You keep full access until then.
              </p>
            ) : null}
            {!subscription.active && others.length === 0 ? (
              <p className="mt-2 text-sm text-muted-foreground">No paid subscription yet. Choose a plan below to upgrade.</p>
            ) : null}
            {others.length > 0 ? <PaidSubscriptions subscriptions={others} hasPlan={subscription.active} /> : null}
          </CardContent>
        </Card>

        <BillingActions
          active={subscription.active}
          hasBillingAccount={subscription.hasBillingAccount}
          hasOtherSubscriptions={others.length > 0}
          hasPayments={hasPayments}
          portal={portal}
        />
      </div>

      <RunningTrials trials={trials} />

      <section aria-labelledby="plans-heading">
        <h2 id="plans-heading" className="mb-1 text-xl font-semibold">
          Plans
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">
          {changesPlan
            ? "Switching changes your current subscription: you see the prorated amount before you confirm."
            : "Checkout opens in a new tab. Buying a plan replaces your current plan or scaling tier."}
        </p>
        <ul className="grid gap-6 md:grid-cols-3">
          {billingPlans.map((plan) => {
            const current = currentType === plan.type;
            const busy = pending === plan.type || changing === plan.type;
            return (
              <li key={plan.type}>
                <Card
                  className={cn(
                    "flex h-full flex-col",
                    plan.popular && "border-primary shadow-md",
                    current && "ring-2 ring-emerald-600/40",
                  )}
                  data-testid={`plan-${plan.type}`}
                >
                  <CardHeader>
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <h3 className="text-lg font-semibold">{plan.name}</h3>
                      <div className="flex gap-1">
                        {plan.popular ? <Badge>Popular</Badge> : null}
                        {current ? <Badge variant="success">Current plan</Badge> : null}
                      </div>
                    </div>
                    <p>
                      <span className="text-3xl font-bold">{formatDollars(plan.monthlyPrice)}</span>
                      <span className="text-muted-foreground">/month</span>
                    </p>
                  </CardHeader>
                  <CardContent className="flex-1">
                    <p className="flex items-center gap-2 text-sm">
                      <Check className="size-4 text-emerald-600" aria-hidden="true" />
                      {plan.contacts === null ? "Unlimited contacts" : `${formatCount(plan.contacts)} contacts`}
                    </p>
                  </CardContent>
                  <CardFooter>
                    {/* A form for a click before hydration or without JavaScript (ADR 0016): ids only. */}
                    <Form method="post" className="grid w-full gap-2">
                      <input type="hidden" name="intent" value="checkout" />
                      <input type="hidden" name="planType" value={plan.type} />
                      <Button
                        type="submit"
                        className="w-full"
                        variant={plan.popular && !current ? "default" : "outline"}
                        disabled={current || pending !== null || changing !== null}
                        aria-busy={busy || undefined}
                        onClick={
                          changesPlan
                            ? undefined
                            : checkoutClick(() => void run(plan.type, { kind: "plan", planType: plan.type }))
                        }
                      >
                        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                        {busy
                          ? changesPlan
                            ? "Preparing..."
                            : "Processing..."
                          : current
                            ? "Current Plan"
                            : changesPlan
                              ? `Switch to ${plan.name}`
                              : `Choose ${plan.name}`}
                      </Button>
                      <CheckoutFormError message={planError(plan.type)} />
                    </Form>
                  </CardFooter>
                </Card>
              </li>
            );
          })}
        </ul>
        <p className="sr-only" aria-live="polite">
          {pending ? "Starting checkout, please wait." : changing ? "Preparing the plan change, please wait." : ""}
        </p>
      </section>

      <BillingHistory entries={history} />
    </div>
  );
}
