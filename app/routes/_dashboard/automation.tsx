import { Bot, Package, Store } from "lucide-react";
import { Link } from "react-router";
import { EmptyState, PageHeader } from "~/components/dashboard/pages/common";
import { buttonVariants } from "~/components/ui/button";
import { formatDollars } from "~/catalogue/pricing";
import { requireUser } from "~/server/auth/session.server";
import { listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { db } from "~/server/db/client.server";
import { LocalDate } from "~/components/dashboard/billing/LocalDate";
import type { Route } from "./+types/automation";

export const meta: Route.MetaFunction = () => [
  { title: "Apps & Automations | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

/** The customer's purchased apps: their paid app orders, filtered by the session's user id. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { apps: await listPurchasedAutomations(db(), user.id) };
}

export default function AutomationPage({ loaderData }: Route.ComponentProps) {
  const { apps } = loaderData;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Apps & Automations" description="The AI apps and automations running for your business." />
      {apps.length === 0 ? (
        <EmptyState icon={<Bot />} title="No automations yet">
          <p className="max-w-md text-sm text-muted-foreground">
            Pick a ready-made AI app or a package and it will appear here once it is live.
          </p>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <Link to="/apps" className={buttonVariants()}>
              <Store aria-hidden="true" />
              Browse Ready-Made Apps
            </Link>
            <Link to="/packages" className={buttonVariants({ variant: "outline" })}>
              <Package aria-hidden="true" />
              See Packages
            </Link>
          </div>
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Purchased apps and packages">
          {apps.map((a) => (
            <li key={a.id} className="rounded-xl border bg-card p-4 shadow-sm" data-testid="purchased-app">
              <h2 className="font-semibold">{a.name}</h2>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted-foreground">Option</dt>
                <dd>{a.optionLabel}</dd>
                <dt className="text-muted-foreground">Amount</dt>
                <dd className="font-medium">
                  {formatDollars(a.amount)}
                  {a.isSubscription ? "/month" : ""}
                </dd>
                <dt className="text-muted-foreground">Purchased</dt>
                <dd>
                  <LocalDate iso={a.paidAt} />
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
