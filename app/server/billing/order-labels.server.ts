import type { OrderRow } from "../db/schema";
import { deliverySold, tabLabel } from "./list-orders.server";

const KIND_LABELS: Record<string, string> = {
  package: "Package",
  plan: "Monthly plan",
  addons: "Add-ons",
  scaling: "Scaling plan",
  member: "Member plan",
  distributor: "Distributor program",
  // Its receipt's one line: the plans' names are the item ('Changed plan: Pro → Enterprise').
  "plan-change": "Prorated for the rest of the billing period",
};

/** What was chosen beyond the item itself, as the checkout page and the receipt name it. */
export function orderOptionLabel(order: Pick<OrderRow, "kind" | "pricingTab" | "details">): string {
  if (order.kind === "app") return tabLabel(order.pricingTab);
  if (order.kind === "package") {
    const mode = order.details.mode === "monthly" ? "Monthly" : "One-time";
    const { rush, timeline } = deliverySold(order);
    return rush ? `${mode}, Rush (${timeline})` : `${mode}, ${timeline}`;
  }
  return KIND_LABELS[order.kind] ?? order.kind;
}
