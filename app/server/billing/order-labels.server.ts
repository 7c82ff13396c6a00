import type { OrderRow } from "../db/schema";
import { tabLabel } from "./list-orders.server";

const KIND_LABELS: Record<string, string> = {
  package: "Package",
  plan: "Monthly plan",
  addons: "Add-ons",
  scaling: "Scaling plan",
  member: "Member plan",
  distributor: "Distributor program",
};

/** What was chosen beyond the item itself, as the checkout page and the receipt name it. */
export function orderOptionLabel(order: Pick<OrderRow, "kind" | "pricingTab" | "details">): string {
  if (order.kind === "app") return tabLabel(order.pricingTab);
  if (order.kind === "package") {
    const mode = order.details.mode === "monthly" ? "Monthly" : "One-time";
    return order.details.rush ? `${mode}, Rush (24-48 hours)` : `${mode}, 5-7 days`;
  }
  return KIND_LABELS[order.kind] ?? order.kind;
}
