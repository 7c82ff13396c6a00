import { Link } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, MiniTable, Panel } from "~/components/admin/AdminShell";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { KIND_LABELS, planAmountsText } from "~/catalogue/plan-prices";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { listPlanPrices } from "~/server/admin/list-plan-prices.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/plans";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData ? notFoundMeta(matches) : [{ title: "Plans | Operations" }, { name: "robots", content: "noindex" }];

/**
 * /admin/plans — every plan whose price an operator sets (billing plans, scaling tiers, member plans,
 * the distributor program, the quick-pick packages) with what it sells at now and the changes
 * scheduled, each linked to its price form (docs/decisions/0085-plan-prices-in-database.md,
 * 0089-quick-pick-package-prices-in-database.md). Operators only; anyone else gets a 404.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const [plans, timeZone] = await Promise.all([listPlanPrices(db()), consoleTimeZone(request, me)]);
  return { plans, timeZone };
}

export const ErrorBoundary = AdminErrorBoundary;

const link = "font-medium text-primary underline-offset-4 hover:underline";

export default function AdminPlans({ loaderData }: Route.ComponentProps) {
  const { plans, timeZone } = loaderData;
  const rows = plans.map((p) => [
    <Link key="name" to={`/admin/plans/${p.key}`} className={link} aria-label={`Edit ${p.name}`}>
      {p.name}
    </Link>,
    KIND_LABELS[p.kind],
    <span key="now" data-testid={`plan-price-${p.key}`}>
      {planAmountsText(p.current, formatMoney)}
    </span>,
    planAmountsText(p.list, formatMoney),
    p.scheduled.length === 0 ? (
      "—"
    ) : (
      <ul key="scheduled" className="space-y-1">
        {p.scheduled.map((s) => (
          <li key={s.effectiveAt}>
            {planAmountsText(s.amounts, formatMoney)} from <LocalDateTime iso={s.effectiveAt} />
          </li>
        ))}
      </ul>
    ),
  ]);
  return (
    <AdminShell title="Plans" timeZone={timeZone}>
      <Panel id="plans" title="Plan prices">
        <p className="mb-4 text-sm text-muted-foreground">
          Which plans exist, their names, features and allowances are set in code; their prices are set here. The free Starter
          trial has no price. Orders placed and plans already paid for keep the price they were sold at.
        </p>
        <MiniTable
          caption="Plan prices"
          head={["Plan", "Kind", "Price now", "List price", "Scheduled"]}
          empty="No plans."
          rows={rows}
        />
      </Panel>
    </AdminShell>
  );
}
