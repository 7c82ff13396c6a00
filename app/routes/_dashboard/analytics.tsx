import { lazy, Suspense, useSyncExternalStore } from "react";
import { Activity, CalendarClock, LifeBuoy, MousePointerClick } from "lucide-react";
import { EmptyState, formatCount, PageHeader } from "~/components/dashboard/pages/common";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { activityLabel, ANALYTICS_DAYS } from "~/catalogue/dashboard";
import { getAccountAnalytics } from "~/server/analytics/activity.server";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/analytics";

// recharts is heavy: only this page downloads it, and only after hydration.
const ActivityChart = lazy(() => import("~/components/dashboard/pages/ActivityChart"));

export const meta: Route.MetaFunction = () => [{ title: "Analytics | AI Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return getAccountAnalytics(db(), user.id);
}

const noSubscribe = () => () => {};

function ChartSkeleton() {
  return <div className="h-full w-full animate-pulse rounded-lg bg-muted" aria-hidden="true" />;
}

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { days, kinds, totalEvents, dashboardVisits, ticketsOpened, trialDaysLeft } = loaderData;
  const hydrated = useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
  const activeDays = days.filter((d) => d.total > 0);

  const stats = [
    { label: "Dashboard visits", value: formatCount(dashboardVisits), icon: MousePointerClick },
    { label: `Events (last ${ANALYTICS_DAYS} days)`, value: formatCount(totalEvents), icon: Activity },
    { label: "Tickets opened", value: formatCount(ticketsOpened), icon: LifeBuoy },
    {
      label: "Trial days left",
      value: trialDaysLeft === null ? "Not started" : String(trialDaysLeft),
      icon: CalendarClock,
    },
  ];

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Analytics" description={`Your account's activity over the last ${ANALYTICS_DAYS} days.`} />
      <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl border bg-card p-4 shadow-sm">
            <dt className="flex items-center gap-2 text-sm text-muted-foreground">
              <s.icon className="size-4" aria-hidden="true" />
              {s.label}
            </dt>
            <dd className="mt-1 text-2xl font-bold">{s.value}</dd>
          </div>
        ))}
      </dl>

      {totalEvents === 0 ? (
        <EmptyState icon={<Activity />} title="No activity yet">
          <p className="max-w-md text-sm text-muted-foreground">
            As you use the dashboard, start your trial and open tickets, your activity shows up here day by day.
          </p>
        </EmptyState>
      ) : (
        // minmax(0, 1fr): a wide table scrolls inside its card instead of widening the page at phone width.
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
          <Card>
            <CardHeader>
              <h2 className="text-xl font-semibold leading-tight tracking-tight">Events per day</h2>
            </CardHeader>
            <CardContent>
              {/* The chart is a visual duplicate of the table below, which screen readers use. */}
              <div className="h-72 w-full" aria-hidden="true">
                {hydrated ? (
                  <Suspense fallback={<ChartSkeleton />}>
                    <ActivityChart days={days} kinds={kinds} />
                  </Suspense>
                ) : (
                  <ChartSkeleton />
                )}
              </div>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <h2 id="activity-table-heading" className="text-xl font-semibold leading-tight tracking-tight">
                Activity by day
              </h2>
            </CardHeader>
            <CardContent>
              {/* Scrolls sideways when the kinds outgrow a phone's width: focusable, so keys scroll it too. */}
              <section
                className="overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe: a scrollable region must take focus
                tabIndex={0}
                aria-labelledby="activity-table-heading"
              >
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Events per day and kind, days with activity only</caption>
                  <thead>
                    <tr className="border-b">
                      <th scope="col" className="py-2 pr-4 font-semibold">
                        Date
                      </th>
                      {kinds.map((k) => (
                        <th key={k} scope="col" className="py-2 pr-4 font-semibold">
                          {activityLabel(k)}
                        </th>
                      ))}
                      <th scope="col" className="py-2 font-semibold">
                        Total
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {activeDays.map((d) => (
                      <tr key={d.date} className="border-b last:border-0">
                        <th scope="row" className="py-2 pr-4 font-medium">
                          <time dateTime={d.date}>{d.date}</time>
                        </th>
                        {kinds.map((k) => (
                          <td key={k} className="py-2 pr-4 tabular-nums">
                            {d.byKind[k] ?? 0}
                          </td>
                        ))}
                        <td className="py-2 tabular-nums font-semibold">{d.total}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            </CardContent>
          </Card>
        </div>
      )}
    </div>
  );
}
