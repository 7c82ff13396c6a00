import { formatDollars } from "~/components/dashboard/pages/common";
import { Badge } from "~/components/ui/badge";
import type { PaidSubscription } from "~/server/billing/subscription-summary.server";

/** A paid subscription's provider state as the page shows it ('past_due' -> 'Past due'). */
function subscriptionStatusLabel(status: string): string {
  const text = status.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Monthly add-ons, apps, packages and the distributor program: order rows, not a plan. */
export function PaidSubscriptions({ subscriptions, hasPlan }: { subscriptions: PaidSubscription[]; hasPlan: boolean }) {
  const active = subscriptions.filter((s) => s.active).length;
  return (
    <section aria-labelledby="paid-subscriptions-heading" className="mt-4 border-t pt-4" data-testid="paid-subscriptions">
      <h3 id="paid-subscriptions-heading" className="text-sm font-semibold">
        {hasPlan ? "Other paid subscriptions" : "Your paid subscriptions"}
      </h3>
      <p className="mt-1 text-sm text-muted-foreground" data-testid="paid-subscriptions-summary">
        {active === 0
          ? "None of your paid subscriptions is active."
          : `You have ${active} active paid ${active === 1 ? "subscription" : "subscriptions"}.`}
        {hasPlan ? null : " Choose a plan below to add a billing plan."}
      </p>
      <ul className="mt-2 grid gap-2">
        {subscriptions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm">
            <span className="font-medium">{s.itemName}</span>
            <span className="flex items-center gap-2">
              <span>{formatDollars(s.monthlyPrice)}/month</span>
              <Badge variant={s.active ? "success" : "warning"}>{subscriptionStatusLabel(s.status)}</Badge>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
