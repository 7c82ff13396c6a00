import { ArrowRight, ChartColumn, CheckCircle2, Clock, Package, Puzzle, Sparkles, Workflow } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { displayFirstName } from "~/components/dashboard/nav";
import { TRIAL_PLANS } from "~/catalogue/plans";
import {
  formatDollars,
  formatTrialRemaining,
  memberSaving,
  membersSave,
  TRIAL_REFRESH_MS,
  trialProgressPercent,
} from "~/catalogue/trial";
import { requireUser } from "~/server/auth/session.server";
import { currentPlanPricesOfRequest } from "~/server/catalogue/current-plan-prices.server";
import { trialStatusOfRequest } from "~/server/trial/request-trial-status.server";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = () => [
  { title: "Overview & Analytics | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // The layout's gate read the same status for this request: one read, one clock.
  const status = await trialStatusOfRequest(request, user.id);
  const { trial, active, hasActiveSubscription, entitlements } = status;
  const now = status.now.getTime();
  const plan = TRIAL_PLANS.find((p) => p.id === trial.selectedPlan);
  const { plan: paidPlan, scalingTier, addons, monthlyTotal } = entitlements;
  const trialRunning = trial.trialStarted && trial.trialEndsAt !== null && trial.trialEndsAt.getTime() > now;
  // A subscriber whose access is not a running trial: the trial prompt (a page reload) would lead nowhere.
  const accessFromSubscription = hasActiveSubscription && !trialRunning;
  // The upgrade card names what the member plans save at the prices they sell at now.
  const saving = active ? null : memberSaving((await currentPlanPricesOfRequest(request)).trialPlans);
  return {
    firstName: displayFirstName(user.firstName, user.email),
    now,
    active,
    accessFromSubscription,
    saving,
    trial: {
      started: trial.trialStarted,
      activatedAt: trial.trialActivatedAt?.getTime() ?? null,
      endsAt: trial.trialEndsAt?.getTime() ?? null,
      planPrice: trial.planPrice ?? 0,
    },
    // What the customer pays for: the plan (or the tier that replaced it), add-ons, and every
    // running subscription's monthly price added up; without any, the trial's plan and price.
    value: {
      planName: paidPlan?.name ?? scalingTier?.name ?? plan?.name ?? "Starter",
      tierContacts: scalingTier ? scalingTier.reachLimit : null,
      addons: addons.map((a) => a.name),
      monthlyTotal,
    },
  };
}

/** 'now', starting from the server's clock (so hydration matches) and refreshed every 60 s. */
function useMinuteClock(serverNow: number) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), TRIAL_REFRESH_MS);
    return () => clearInterval(id);
  }, []);
  return now;
}

const TILES = [
  { to: "/dashboard/addons", title: "Add-Ons Marketplace", text: "Extend your AI apps with add-ons.", icon: Puzzle },
  { to: "/dashboard/analytics", title: "Analytics", text: "See how your automation performs.", icon: ChartColumn },
  { to: "/dashboard/automation", title: "Automation", text: "Manage your automated workflows.", icon: Workflow },
  { to: "/packages", title: "Upgrade Plans", text: "Compare packages and member pricing.", icon: Package },
] as const;

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { firstName, trial, active, accessFromSubscription, value, saving } = loaderData;
  const now = useMinuteClock(loaderData.now);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <div>
        {/* A customer who has not started the trial has just arrived (the sign-up link lands here). */}
        <h1 className="text-2xl font-bold sm:text-3xl">
          {trial.started || accessFromSubscription ? `Welcome back, ${firstName}!` : `Welcome, ${firstName}!`}
        </h1>
        <p className="mt-1 text-muted-foreground">Here is an overview of your AI automation account.</p>
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="flex-row items-center justify-between gap-4 space-y-0">
            <div>
              <h2 className="text-xl font-semibold leading-tight tracking-tight">
                <span className="flex items-center gap-2">
                  <Clock className="size-5 text-primary" aria-hidden />
                  {accessFromSubscription ? "Subscription Status" : "Trial Status"}
                </span>
              </h2>
              <CardDescription className="mt-1">
                {accessFromSubscription ? "Your paid subscription." : "Your free trial and plan."}
              </CardDescription>
            </div>
            <Badge variant={active ? "success" : "secondary"} data-testid="trial-badge">
              {active ? "Active" : "Inactive"}
            </Badge>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {accessFromSubscription ? (
              <div className="flex flex-col items-start gap-3" data-testid="subscription-active">
                <p>Your subscription is active: every feature is unlocked.</p>
                <Button asChild variant="outline">
                  <Link to="/dashboard/billing">View subscription</Link>
                </Button>
              </div>
            ) : !trial.started || trial.endsAt === null || trial.activatedAt === null ? (
              <div className="flex flex-col items-start gap-3">
                <p>Start your free trial to access all features</p>
                <Button type="button" onClick={() => window.location.reload()}>
                  Start Free Trial
                </Button>
              </div>
            ) : (
              <div className="flex flex-col gap-2">
                <p className="text-lg font-semibold" data-testid="trial-remaining">
                  {formatTrialRemaining(new Date(trial.endsAt), new Date(now))}
                </p>
                <Progress
                  value={trialProgressPercent(new Date(trial.activatedAt), new Date(trial.endsAt), new Date(now))}
                  aria-label="Trial time elapsed"
                />
              </div>
            )}
            <dl className="grid grid-cols-2 gap-4 rounded-lg bg-muted p-4 text-sm">
              <div>
                <dt className="text-muted-foreground">Plan</dt>
                <dd className="font-semibold" data-testid="overview-plan">
                  {value.planName}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Plan value</dt>
                <dd className="font-semibold" data-testid="overview-plan-value">
                  {value.monthlyTotal > 0 ? `${formatDollars(value.monthlyTotal)}/mo` : formatDollars(trial.planPrice)}
                </dd>
              </div>
              {value.tierContacts !== null ? (
                <div>
                  <dt className="text-muted-foreground">Scaling tier</dt>
                  <dd className="font-semibold" data-testid="overview-tier">
                    {value.tierContacts.toLocaleString("en-US")} contacts/month
                  </dd>
                </div>
              ) : null}
              {value.addons.length > 0 ? (
                <div className="col-span-2">
                  <dt className="text-muted-foreground">Add-ons</dt>
                  <dd className="font-semibold" data-testid="overview-addons">
                    {value.addons.join(", ")}
                  </dd>
                </div>
              ) : null}
            </dl>
            {!active && (
              <Button asChild variant="accent" className="self-start">
                <Link to="/packages">
                  Upgrade Now <ArrowRight aria-hidden />
                </Link>
              </Button>
            )}
          </CardContent>
        </Card>

        {active ? (
          <Card className="border-emerald-200 bg-emerald-50">
            <CardHeader>
              <h2 className="text-xl font-semibold leading-tight tracking-tight">
                <span className="flex items-center gap-2">
                  <CheckCircle2 className="size-5 text-emerald-700" aria-hidden />
                  You&apos;re all set!
                </span>
              </h2>
              <CardDescription className="text-emerald-900">
                Your account is active. Explore the features included in your plan.
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-2">
              <Button asChild>
                <Link to="/dashboard/addons">Explore Features</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/packages">View Upgrade Options</Link>
              </Button>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardHeader>
              <h2 className="text-xl font-semibold leading-tight tracking-tight">
                <span className="flex items-center gap-2">
                  <Sparkles className="size-5 text-primary" aria-hidden />
                  Unlock everything
                </span>
              </h2>
              <CardDescription>
                {saving
                  ? `${membersSave(saving)} on ${saving.planNames.join(" and ")} plans.`
                  : "Compare the member plans and what they include."}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild variant="outline" className="w-full">
                <Link to="/packages">View Upgrade Options</Link>
              </Button>
            </CardContent>
          </Card>
        )}
      </div>

      <section aria-labelledby="quick-links">
        <h2 id="quick-links" className="text-lg font-semibold">
          Quick links
        </h2>
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {TILES.map(({ to, title, text, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="flex h-full flex-col gap-2 rounded-xl border bg-card p-5 shadow-sm transition-colors hover:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Icon className="size-6 text-primary" aria-hidden />
                <span className="font-semibold">{title}</span>
                <span className="text-sm text-muted-foreground">{text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
