import { describe, expect, it } from "vitest";
import type { OrderRow } from "../db/schema";
import { packageDelivery } from "./list-orders.server";
import { orderOptionLabel } from "./order-labels.server";

const pkg = (pricingTab: string | null, details: Record<string, unknown>) =>
  ({ kind: "package", pricingTab, details }) as Pick<OrderRow, "kind" | "pricingTab" | "details">;

describe("a package's option as sold: the receipt and billing history agree", () => {
  it.each([
    [
      "rush recorded",
      pkg("one-time", { mode: "one-time", rush: true, timeline: "24-48 hours" }),
      "One-time, Rush (24-48 hours)",
      "rush delivery (24-48 hours)",
    ],
    [
      "standard recorded",
      pkg("one-time", { mode: "monthly", rush: false, timeline: "5-7 days" }),
      "Monthly, 5-7 days",
      "standard delivery (5-7 days)",
    ],
    [
      "rush in the pricing tab only (an older order)",
      pkg("rush", { mode: "one-time" }),
      "One-time, Rush (24-48 hours)",
      "rush delivery (24-48 hours)",
    ],
  ])("%s", (_why, order, option, delivery) => {
    expect(orderOptionLabel(order)).toBe(option);
    expect(packageDelivery(order)).toBe(delivery);
  });
});

describe("a plan change's receipt option", () => {
  it("says the amount is the proration", () => {
    expect(orderOptionLabel({ kind: "plan-change", pricingTab: null, details: {} })).toBe(
      "Prorated for the rest of the billing period",
    );
  });
});
