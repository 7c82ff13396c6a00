import { BadgeDollarSign, CircleDollarSign, MousePointerClick, Sparkles, UserPlus, Users } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { data, Link, redirect, useSearchParams } from "react-router";
import { PayoutsCard } from "~/components/affiliates/PayoutsCard";
import { getAffiliatePayouts, setPayoutEmail } from "~/server/affiliates/affiliate-payouts.server";
import { DASHBOARD_DAYS } from "~/catalogue/affiliates";
import { CopyLink } from "~/components/affiliates/CopyLink";
import { formatCount, formatDay, formatMoney } from "~/components/affiliates/format";
import { AFFILIATE_TEXT } from "~/lib/affiliate-messages";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { getAffiliate, getAffiliateDashboard } from "~/server/affiliates/affiliates.server";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { env } from "~/server/env.server";
import type { Route } from "./+types/affiliate-dashboard";

// recharts is heavy: only this page downloads it, and only after hydration.
const ReferralChart = lazy(() => import("~/components/affiliates/ReferralChart"));

export const meta: Route.MetaFunction = () => [
  { title: "Affiliate Dashboard | AI Automation Apps" },
  { name: "robots", content: "noindex" },
];

/** Every query is filtered by the signed-in user's own id: an affiliate sees only their own data. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const affiliate = await getAffiliate(db(), user.id);
  if (!affiliate) {
    // E.g. the username picked at sign-up was taken before the email was verified: finish on the form.
    const asked = new URL(request.url).searchParams.get("username");
    throw redirect(asked ? `/affiliate-signup?username=${encodeURIComponent(asked)}` : "/affiliate-signup");
  }
  const [dashboard, payouts] = await Promise.all([getAffiliateDashboard(db(), user.id), getAffiliatePayouts(db(), user.id)]);
  return {
    payouts,
    username: affiliate.username,
    businessName: affiliate.businessName,
    payoutStatus: affiliate.stripeConnectStatus,
    link: `${env().PUBLIC_SITE_URL}/ref/${affiliate.username}`,
    ...dashboard,
  };
}

/** The affiliate's own payout email (their PayPal account), for the payout runs' payment file. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const affiliate = await getAffiliate(db(), user.id);
  if (!affiliate) throw redirect("/affiliate-signup");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data({ ok: false, error: "The form could not be read." }, { status: 400 });
  }
  const value = form.get("payoutEmail");
  if (form.get("intent") !== "payout-email" || typeof value !== "string" || value.length > 1000) {
    return data({ ok: false, error: "Enter the email address of your PayPal account." }, { status: 400 });
  }
  const problem = await setPayoutEmail(db(), user.id, value);
  if (problem) return data({ ok: false, error: problem }, { status: 400 });
  return data({ ok: true, error: null });
}

const TOASTS: Record<string, string> = {
  "account-created": "Account Created!",
  joined: AFFILIATE_TEXT.joined,
};

const noSubscribe = () => () => {};

function StatusBadge({ status }: { status: "pending" | "paid" | "held" }) {
  return (
    <span
      className={
        status === "paid"
          ? "rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800"
          : status === "held"
            ? "rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800"
            : "rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900"
      }
      title={status === "held" ? "The payment is disputed: held until the bank decides." : undefined}
    >
      {status === "paid" ? "Paid" : status === "held" ? "Held (disputed)" : "Pending"}
    </span>
  );
}

function useToastParam() {
  const [params, setParams] = useSearchParams();
  const key = params.get("toast");
  const [notice, setNotice] = useState<Notice | null>(null);
  const id = useRef(0);
  useEffect(() => {
    if (key === null && !params.has("username")) return;
    const title = key ? TOASTS[key] : undefined;
    if (title) {
      id.current += 1;
      setNotice({ id: id.current, kind: "success", title });
    }
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("toast");
        next.delete("username");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [key, params, setParams]);
  return notice;
}

export default function AffiliateDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { stats, days, ledger, link, username, businessName, payoutStatus, payouts } = loaderData;
  const notice = useToastParam();
  const hydrated = useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
  const cards = [
    { label: "Clicks", value: formatCount(stats.clicks), icon: MousePointerClick },
    { label: "Sign-ups", value: formatCount(stats.signups), icon: UserPlus },
    { label: "Paying customers", value: formatCount(stats.payingCustomers), icon: Users },
    { label: "Commission pending", value: formatMoney(stats.pending), icon: CircleDollarSign },
    { label: "Commission paid", value: formatMoney(stats.paid), icon: BadgeDollarSign },
  ];
  const activeDays = days.filter((d) => d.clicks || d.signups || d.commission);

  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b bg-ink text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <Link
            to="/"
            className="flex items-center gap-2 rounded-md font-bold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <span className="grid size-8 place-items-center rounded-lg bg-primary">
              <Sparkles className="size-4" aria-hidden />
            </span>
            AI Automation Apps
          </Link>
          <nav aria-label="Account" className="flex items-center gap-4 text-sm">
            <Link to="/dashboard" className="rounded text-slate-200 underline-offset-4 hover:text-white hover:underline">
              Customer dashboard
            </Link>
          </nav>
        </div>
      </header>

      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        <div className="mb-6">
          <h1 className="text-2xl font-bold sm:text-3xl">Affiliate Dashboard</h1>
          <p className="mt-1 text-muted-foreground">
            {businessName ? `${businessName} · ` : ""}@{username} · 30% lifetime commission · payouts{" "}
            {payouts.payoutEmail ? `to ${payouts.payoutEmail}` : payoutStatus === "pending" ? "not set up yet" : payoutStatus}
          </p>
        </div>

        <Card className="mb-6">
          <CardHeader className="p-4 sm:p-6">
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Your referral link</h2>
            <CardDescription>Visitors who open it and sign up within 30 days become your customers for life.</CardDescription>
          </CardHeader>
          <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
            <CopyLink link={link} />
          </CardContent>
        </Card>

        <dl className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-5">
          {cards.map((c) => (
            <div key={c.label} className="rounded-xl border bg-card p-4 shadow-sm" data-testid={`stat-${c.label}`}>
              <dt className="flex items-center gap-2 text-sm text-muted-foreground">
                <c.icon className="size-4" aria-hidden />
                {c.label}
              </dt>
              <dd className="mt-1 text-2xl font-bold">{c.value}</dd>
            </div>
          ))}
        </dl>

        <PayoutsCard payouts={payouts} result={actionData ?? null} />

        <Card className="mb-6">
          <CardHeader className="p-4 sm:p-6">
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Last {DASHBOARD_DAYS} days</h2>
            <CardDescription>Clicks, sign-ups and commission per day (UTC).</CardDescription>
          </CardHeader>
          <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
            {/* The chart is a visual duplicate of the table below, which screen readers use. */}
            <div className="h-64 w-full" aria-hidden="true">
              {hydrated ? (
                <Suspense fallback={<div className="h-full w-full animate-pulse rounded-lg bg-muted" />}>
                  <ReferralChart days={days} />
                </Suspense>
              ) : (
                <div className="h-full w-full animate-pulse rounded-lg bg-muted" />
              )}
            </div>
            <details className="mt-4" open={!hydrated}>
              <summary className="cursor-pointer text-sm font-medium text-primary">Show as a table</summary>
              {activeDays.length === 0 ? (
                <p className="mt-2 text-sm text-muted-foreground">No activity in the last {DASHBOARD_DAYS} days yet.</p>
              ) : (
                <div className="mt-2 overflow-x-auto">
                  <table className="w-full text-sm">
                    <caption className="sr-only">Activity per day</caption>
                    <thead>
                      <tr className="border-b text-left">
                        <th scope="col" className="py-2 pr-4 font-medium">
                          Date
                        </th>
                        <th scope="col" className="py-2 pr-4 text-right font-medium">
                          Clicks
                        </th>
                        <th scope="col" className="py-2 pr-4 text-right font-medium">
                          Sign-ups
                        </th>
                        <th scope="col" className="py-2 text-right font-medium">
                          Commission
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {activeDays.map((d) => (
                        <tr key={d.date} className="border-b last:border-0">
                          <th scope="row" className="py-2 pr-4 text-left font-normal">
                            {formatDay(d.date)}
                          </th>
                          <td className="py-2 pr-4 text-right">{formatCount(d.clicks)}</td>
                          <td className="py-2 pr-4 text-right">{formatCount(d.signups)}</td>
                          <td className="py-2 text-right">{formatMoney(d.commission)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </details>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="p-4 sm:p-6">
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Commission ledger</h2>
            <CardDescription>One entry per payment of a referred customer; a refund reverses its commission.</CardDescription>
          </CardHeader>
          <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
            {ledger.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No commissions yet. When a customer you referred pays, 30% of the payment appears here.
              </p>
            ) : (
              <div className="overflow-x-auto">
                <table className="w-full text-sm" data-testid="ledger">
                  <caption className="sr-only">Commission ledger, newest first</caption>
                  <thead>
                    <tr className="border-b text-left">
                      <th scope="col" className="py-2 pr-4 font-medium">
                        Date
                      </th>
                      <th scope="col" className="py-2 pr-4 font-medium">
                        Customer
                      </th>
                      <th scope="col" className="hidden py-2 pr-4 font-medium sm:table-cell">
                        Type
                      </th>
                      <th scope="col" className="hidden py-2 pr-4 font-medium sm:table-cell">
                        Status
                      </th>
                      <th scope="col" className="py-2 text-right font-medium">
                        Amount
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {ledger.map((e) => (
                      <tr key={e.id} className="border-b last:border-0">
                        <td className="whitespace-nowrap py-2 pr-3 sm:pr-4">{formatDay(e.createdAt)}</td>
                        <td className="py-2 pr-3 sm:pr-4">
                          {e.customer}
                          {e.kind === "reversal" ? (
                            <span className="block text-xs text-destructive sm:hidden">Reversal</span>
                          ) : null}
                        </td>
                        <td className="hidden py-2 pr-4 capitalize sm:table-cell">{e.kind}</td>
                        <td className="hidden py-2 pr-4 sm:table-cell">
                          <StatusBadge status={e.status} />
                        </td>
                        <td className="whitespace-nowrap py-2 text-right">
                          <span className={`font-medium ${e.amount < 0 ? "text-destructive" : ""}`}>{formatMoney(e.amount)}</span>
                          <span className="mt-1 block sm:hidden">
                            <StatusBadge status={e.status} />
                          </span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </CardContent>
        </Card>
      </main>
      <LazyToaster notice={notice} />
    </div>
  );
}
