import { describe, expect, it } from "vitest";
import { receiptLines, receiptNumber, refundsByPayment } from "./receipt-lines.server";

const order = {
  itemName: "AI Distributor Program",
  kind: "distributor",
  pricingTab: null,
  details: {},
  setupFee: 99_700,
  trialDays: 7,
  isSubscription: true,
};
const app = {
  ...order,
  itemName: "Invoice Bot",
  kind: "app",
  pricingTab: "standard",
  setupFee: 0,
  trialDays: 0,
  isSubscription: false,
};

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 12, minute));
const movement = (id: number, kind: "payment" | "refund", orderId: string | null, minute: number, amount = 100) => ({
  id,
  kind,
  orderId,
  amount,
  createdAt: at(minute),
});

describe("receipt lines", () => {
  it("numbers receipts by payment id", () => {
    expect(receiptNumber(42)).toBe("R-000042");
    expect(receiptNumber(1_234_567)).toBe("R-1234567");
  });

  it("a first payment with a setup fee has the item and the setup fee, adding up to the amount received", () => {
    expect(receiptLines(order, { amount: 119_600 }, true)).toEqual([
      { item: "AI Distributor Program", option: "Distributor program", amount: 19_900 },
      { item: "Setup fee", option: "One-time", amount: 99_700 },
    ]);
    // The trial: only the setup fee is taken at checkout.
    expect(receiptLines(order, { amount: 99_700 }, true)).toEqual([
      { item: "AI Distributor Program", option: "Distributor program, 7-day free trial", amount: 0 },
      { item: "Setup fee", option: "One-time", amount: 99_700 },
    ]);
  });

  it("a later payment of a subscription is its monthly charge, without the setup fee", () => {
    expect(receiptLines(order, { amount: 19_900 }, false)).toEqual([
      { item: "AI Distributor Program", option: "Distributor program, monthly charge", amount: 19_900 },
    ]);
  });

  it("a one-time purchase is one line (also when it is captured at the end of a trial), refunds negative lines", () => {
    expect(receiptLines(app, { amount: 150_000 }, true, [{ amount: 50_000 }, { amount: 100 }])).toEqual([
      { item: "Invoice Bot", option: "Professional", amount: 150_000 },
      { item: "Refund", option: "", amount: -50_000 },
      { item: "Refund", option: "", amount: -100 },
    ]);
  });

  it("a refund is put against the latest payment of its order made before it, else the order's first", () => {
    const byPayment = refundsByPayment([
      movement(1, "payment", "a", 0),
      movement(2, "payment", "b", 1),
      movement(3, "payment", "a", 10),
      movement(4, "refund", "a", 5),
      movement(5, "refund", "a", 11),
      movement(6, "refund", "b", 0), // recorded before its payment (events out of order)
      movement(7, "refund", null, 12),
      movement(8, "refund", "c", 12),
    ]);
    expect([...byPayment.entries()].map(([id, refunds]) => [id, refunds.map((r) => r.id)])).toEqual([
      [1, [4]],
      [3, [5]],
      [2, [6]],
    ]);
  });
});
