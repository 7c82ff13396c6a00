import { useEffect, useRef } from "react";
import { ArrowRight, CheckCircle2 } from "lucide-react";
import { data, Form, Link, useActionData } from "react-router";
import { z } from "zod";
import { LocalDate } from "~/components/dashboard/billing/LocalDate";
import { formatCount, formatDollars, FormError, PageHeader, SubmitButton } from "~/components/dashboard/pages/common";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "~/components/ui/card";
import { requireUser } from "~/server/auth/session.server";
import { confirmPlanChange, QUOTE_MINUTES } from "~/server/billing/confirm-plan-change.server";
import { getPlanChange, planChangeView, type PlanChangeView, type PlanRef } from "~/server/billing/plan-changes.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/billing.change";

export const meta: Route.MetaFunction = () => [{ title: "Change plan | AI Dashboard" }, { name: "robots", content: "noindex" }];

/**
 * A plan change's figures (quotePlanChange priced them on the server when the customer picked
 * another plan or tier) and its confirmation: what the account pays now and after, what is due today
 * for the rest of the period or credited for it, and when the next full charge is.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const order = await getPlanChange(db(), user.id, params.orderId);
  // A made-up id, or another account's: the page says so, with the status a missing page has.
  if (!order) return data({ change: null, expired: false }, { status: 404 });
  const expired = order.status !== "paid" && Date.now() - order.createdAt.getTime() > QUOTE_MINUTES * 60_000;
  return { change: planChangeView(order), expired: expired || order.status === "canceled" };
}

const actionInput = z.strictObject({ intent: z.literal("confirm") });

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = actionInput.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false as const, message: "Unknown action" }, { status: 400 });
  const result = await confirmPlanChange(db(), user.id, params.orderId);
  if (result.ok) return { ok: true as const, message: null };
  const status = result.code === "not_found" ? 404 : result.code === "unavailable" ? 503 : result.code === "declined" ? 402 : 409;
  return data({ ok: false as const, message: result.message }, { status });
}

const reach = (plan: PlanRef) =>
  plan.reachLimit === null ? (plan.kind === "member" ? null : "Unlimited contacts") : `${formatCount(plan.reachLimit)} contacts`;

function PlanSummary({ label, plan, testId }: { label: string; plan: PlanRef; testId: string }) {
  const contacts = reach(plan);
  return (
    <div className="rounded-lg border p-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1">
        <span className="block text-lg font-semibold">{plan.name}</span>
        <span className="block">{formatDollars(plan.monthlyPrice)}/month</span>
        {contacts ? <span className="block text-sm text-muted-foreground">{contacts}</span> : null}
      </dd>
    </div>
  );
}

export default function ChangePlanPage({ loaderData }: Route.ComponentProps) {
  const { change, expired } = loaderData;
  const result = useActionData<typeof action>();
  const done = useRef<HTMLOutputElement>(null);
  const paid = change?.status === "paid";

  // The outcome is where a keyboard or screen-reader user is taken once the change is made.
  useEffect(() => {
    if (paid && result?.ok) done.current?.focus();
  }, [paid, result]);

  if (!change) {
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title="Change plan" />
        <p role="alert">This plan change was not found. Choose the plan again on the billing page.</p>
        <Button asChild variant="outline" className="mt-4">
          <Link to="/dashboard/billing">Back to billing</Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Change plan"
        description={
          paid ? "Your plan has been changed." : "Review the change before you confirm it. Nothing is charged until you do."
        }
      />
      {paid ? (
        <Outcome change={change} focusRef={done} />
      ) : (
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">
              {change.from.name} <ArrowRight className="inline size-5 align-[-3px]" aria-label="to" /> {change.to.name}
            </h2>
            <CardDescription>
              {change.to.monthlyPrice === change.from.monthlyPrice ? "A change" : change.upgrade ? "An upgrade" : "A downgrade"}{" "}
              of your current subscription. It takes effect as soon as you confirm.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <dl className="grid gap-3 sm:grid-cols-2">
              <PlanSummary label="Current plan" plan={change.from} testId="change-from" />
              <PlanSummary label="New plan" plan={change.to} testId="change-to" />
            </dl>
            <Figures change={change} />
            {expired ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                These figures have expired. Choose the plan again to see today&apos;s figures.
              </p>
            ) : null}
          </CardContent>
          <CardFooter className="flex flex-col items-stretch gap-3 sm:flex-row sm:items-center">
            {expired ? null : (
              <Form method="post" className="grid gap-2">
                <SubmitButton intent="confirm" pendingText="Changing plan..." keepFocus className="w-full sm:w-auto">
                  {change.dueNow > 0 ? `Confirm and pay ${formatDollars(change.dueNow)}` : "Confirm change"}
                </SubmitButton>
              </Form>
            )}
            <Button asChild variant="outline">
              <Link to="/dashboard/billing">{expired ? "Back to billing" : `Keep ${change.from.name}`}</Link>
            </Button>
          </CardFooter>
          {result && !result.ok ? (
            <div className="px-6 pb-6">
              <FormError message={result.message} />
            </div>
          ) : null}
        </Card>
      )}
    </div>
  );
}

/** Due now or credited, and the next full charge. */
function Figures({ change }: { change: PlanChangeView }) {
  return (
    <div className="grid gap-2 rounded-lg bg-muted/50 p-4 text-sm">
      <dl className="grid gap-2">
        {change.upgrade ? (
          <div className="flex flex-wrap justify-between gap-2">
            <dt>Due now (prorated)</dt>
            <dd className="text-base font-semibold tabular-nums" data-testid="change-due-now">
              {formatDollars(change.dueNow)}
            </dd>
          </div>
        ) : (
          <div className="flex flex-wrap justify-between gap-2">
            <dt>Credit toward your next invoices</dt>
            <dd className="text-base font-semibold tabular-nums" data-testid="change-credit">
              {formatDollars(change.credit)}
            </dd>
          </div>
        )}
        <div className="flex flex-wrap justify-between gap-2">
          <dt>Next full charge</dt>
          <dd className="tabular-nums" data-testid="change-next-charge">
            {formatDollars(change.to.monthlyPrice)} on <LocalDate iso={change.nextChargeAt} />
          </dd>
        </div>
      </dl>
      <p className="text-muted-foreground">
        For the {change.daysLeft} {change.daysLeft === 1 ? "day" : "days"} left in this billing period: the unused time on{" "}
        {change.from.name} is credited and the same time on {change.to.name} is charged.
      </p>
    </div>
  );
}

function Outcome({ change, focusRef }: { change: PlanChangeView; focusRef: React.RefObject<HTMLOutputElement | null> }) {
  return (
    <Card>
      <CardContent className="grid gap-3 pt-6">
        <output ref={focusRef} tabIndex={-1} className="flex items-start gap-3 focus:outline-none" data-testid="change-done">
          <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden="true" />
          <span>
            Your plan is now <strong>{change.to.name}</strong> ({formatDollars(change.to.monthlyPrice)}/month).{" "}
            {change.dueNow > 0
              ? `${formatDollars(change.dueNow)} was charged for the rest of this billing period.`
              : change.credit > 0
                ? `${formatDollars(change.credit)} is credited toward your next invoices.`
                : "Nothing was charged."}
          </span>
        </output>
        <p className="text-sm text-muted-foreground">
          Next full charge: {formatDollars(change.to.monthlyPrice)} on <LocalDate iso={change.nextChargeAt} />.
        </p>
      </CardContent>
      <CardFooter>
        <Button asChild>
          <Link to="/dashboard/billing">Back to billing</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
