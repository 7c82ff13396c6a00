import { describe, expect, it } from "vitest";
import type { OrderRow } from "../../db/schema";
import { checkoutSessionParams, trialChargeNotice } from "./checkout-provider.server";

const order = {
  id: "order-1",
  kind: "app",
  itemId: "7",
  itemName: "Smile Scheduler",
  amount: 1_850_000,
  currency: "usd",
  isSubscription: false,
  trialDays: 3,
  setupFee: 0,
} as OrderRow;
const input = { customer: { userId: "u", email: "a@example.com", name: "A" }, successUrl: "https://s", cancelUrl: "https://c" };

describe("a one-time build's Stripe Checkout Session", () => {
  it("holds the card (manual capture) and says nothing is due today, the amount and the date", () => {
    const params = checkoutSessionParams(order, input, null, []);
    expect(params.mode).toBe("payment");
    expect(params.payment_intent_data).toEqual({ metadata: { order_id: "order-1", kind: "app" }, capture_method: "manual" });
    expect(trialChargeNotice(order, new Date("2026-11-26T12:00:00Z"))).toBe(
      "Due today $0. 3-day free trial: your card is authorised now and $18,500 is charged 3 days after checkout " +
        "(Nov 29, 2026 if you check out today), unless you cancel the trial in your dashboard's billing page before then.",
    );
  });

  it("names the charge date in the account's time zone", () => {
    // 03:00 UTC on Nov 26 is the evening of Nov 25 in Los Angeles: the charge is on Nov 28 there.
    const at = new Date("2026-11-26T03:00:00Z");
    expect(trialChargeNotice(order, at)).toContain("(Nov 29, 2026 if you check out today)");
    expect(trialChargeNotice(order, at, "America/Los_Angeles")).toContain("(Nov 28, 2026 if you check out today)");
    const params = checkoutSessionParams(order, input, null, [], "America/Los_Angeles");
    expect((params.custom_text?.submit as { message?: string } | undefined)?.message).toMatch(
      /authorised now and \$18,500 is charged 3 days after checkout \(\w{3} \d{1,2}, 2026/,
    );
  });

  it("without a trial the payment is captured at once and no notice is added", () => {
    const params = checkoutSessionParams({ ...order, trialDays: 0 }, input, null, []);
    expect(params.payment_intent_data).toEqual({ metadata: { order_id: "order-1", kind: "app" } });
    expect(params.custom_text).toBeUndefined();
  });
});
