import { useEffect } from "react";
import { Check, CreditCard, RefreshCw } from "lucide-react";
import { data, Form, useActionData } from "react-router";
import { toast } from "sonner";
import { formatCount, formatDollars, PageHeader, SubmitButton } from "~/components/dashboard/pages/common";
import { CHECKOUT_NOTE, PlanBadge } from "~/components/dashboard/pages/PlanBadge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "~/components/ui/card";
import { BILLING_PLANS } from "~/catalogue/plans";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { getSubscriptionSummary } from "~/server/profile/billing.server";
import { cn } from "~/lib/utils";
import { z } from "zod";
import type { Route } from "./+types/billing";

export const meta: Route.MetaFunction = () => [
  { title: "Subscription & Billing | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { subscription: await getSubscriptionSummary(db(), user.id) };
}

const actionInput = z.object({ intent: z.literal("refresh", { error: "Unknown action" }) });

/** 'Refresh status' re-reads the subscription (the loader revalidates after every action). */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const parsed = actionInput.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false as const, error: "Unknown action" }, { status: 400 });
  return data({ ok: true as const, refreshedAt: Date.now() });
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export default function BillingPage({ loaderData }: Route.ComponentProps) {
  const { subscription } = loaderData;
  const result = useActionData<typeof action>();

  useEffect(() => {
    if (result?.ok) toast.success("Subscription status updated");
  }, [result]);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Subscription & Billing" description="Your plan, billing and upgrade options." />
      <div className="mb-8 grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-xl font-semibold leading-tight tracking-tight">Current plan</h2>
              <PlanBadge active={subscription.active} />
            </div>
            <CardDescription>What your account is on today.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold" data-testid="current-plan-name">
              {subscription.planName}
            </p>
            <dl className="mt-3 grid gap-1 text-sm text-muted-foreground">
              {subscription.monthlyPrice !== null ? (
                <div>
                  <dt className="inline">Price: </dt>
                  <dd className="inline">{formatDollars(subscription.monthlyPrice)}/month</dd>
                </div>
              ) : null}
              {subscription.reachLimit !== null ? (
                <div>
                  <dt className="inline">Contacts: </dt>
                  <dd className="inline">{formatCount(subscription.reachLimit)}</dd>
                </div>
              ) : null}
              {subscription.currentPeriodEnd ? (
                <div>
                  <dt className="inline">Renews: </dt>
                  <dd className="inline">{dateFormat.format(new Date(subscription.currentPeriodEnd))}</dd>
                </div>
              ) : null}
              {!subscription.active && subscription.trialEndsAt ? (
                <div>
                  <dt className="inline">Trial ends: </dt>
                  <dd className="inline">{dateFormat.format(new Date(subscription.trialEndsAt))}</dd>
                </div>
              ) : null}
            </dl>
            {!subscription.active ? <p className="mt-2 text-sm text-muted-foreground">No paid subscription yet.</p> : null}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Billing actions</h2>
            <CardDescription>Invoices, payment method and plan status.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            {subscription.active ? (
              <div className="grid gap-1">
                <Button type="button" disabled aria-describedby="portal-note">
                  <CreditCard aria-hidden="true" />
                  Manage Billing
                </Button>
                <p id="portal-note" className="text-xs text-muted-foreground">
                  The billing portal opens in the next release.
                </p>
              </div>
            ) : null}
            <Form method="post">
              <SubmitButton intent="refresh" pendingText="Refreshing..." variant="outline">
                <RefreshCw aria-hidden="true" />
                Refresh status
              </SubmitButton>
            </Form>
          </CardContent>
          {result?.ok ? (
            <CardFooter>
              <output className="block text-sm text-emerald-700">Subscription status updated.</output>
            </CardFooter>
          ) : null}
        </Card>
      </div>

      <section aria-labelledby="plans-heading">
        <h2 id="plans-heading" className="mb-1 text-xl font-semibold">
          Plans
        </h2>
        <p id="checkout-note" className="mb-4 text-sm text-muted-foreground">
          {CHECKOUT_NOTE}
        </p>
        <ul className="grid gap-6 md:grid-cols-3">
          {BILLING_PLANS.map((plan) => {
            const current = subscription.active && subscription.planType === plan.type;
            return (
              <li key={plan.type}>
                <Card className={cn("flex h-full flex-col", plan.popular && "border-primary shadow-md")}>
                  <CardHeader>
                    <div className="flex items-center justify-between gap-2">
                      <h3 className="text-lg font-semibold">{plan.name}</h3>
                      {plan.popular ? <Badge>Popular</Badge> : null}
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
                    <Button
                      type="button"
                      className="w-full"
                      variant={plan.popular ? "default" : "outline"}
                      disabled
                      aria-describedby="checkout-note"
                    >
                      {current ? "Current Plan" : `Choose ${plan.name}`}
                    </Button>
                  </CardFooter>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
