import { describe, expect, it } from "vitest";
import {
  balancesByState,
  centsToAmount,
  csvCell,
  decidePayout,
  entryState,
  payableAt,
  payoutCsv,
  payoutEmailProblem,
  planPayoutRun,
  reversalHoldFrom,
  type LedgerEntryFacts,
} from "./payouts";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-11-27T12:00:00Z");
const daysAgo = (n: number) => new Date(now.getTime() - n * DAY);
const entry = (over: Partial<LedgerEntryFacts>): LedgerEntryFacts => ({
  amount: 3000,
  status: "pending",
  holdFrom: daysAgo(1),
  payoutId: null,
  ...over,
});

describe("entry states", () => {
  it("pending during the hold, payable from its last day on, whatever the hold's length", () => {
    expect(entryState(entry({ holdFrom: daysAgo(29) }), now, 30)).toBe("pending");
    expect(entryState(entry({ holdFrom: daysAgo(30) }), now, 30)).toBe("payable");
    expect(entryState(entry({ holdFrom: daysAgo(8) }), now, 7)).toBe("payable");
    expect(entryState(entry({ holdFrom: daysAgo(0) }), now, 0)).toBe("payable");
    expect(payableAt(daysAgo(10), 30)).toEqual(new Date(now.getTime() + 20 * DAY));
  });

  it("no hold: payable at once; disputed: held; in a run; paid", () => {
    expect(entryState(entry({ holdFrom: null, amount: -500 }), now, 30)).toBe("payable");
    expect(payableAt(null, 30)).toBeNull();
    expect(entryState(entry({ status: "held", holdFrom: daysAgo(90) }), now, 30)).toBe("held");
    expect(entryState(entry({ payoutId: 4, holdFrom: daysAgo(90) }), now, 30)).toBe("in_payout");
    expect(entryState(entry({ status: "paid", payoutId: 4 }), now, 30)).toBe("paid");
  });

  it("balances by state net negative entries", () => {
    const totals = balancesByState(
      [
        entry({ amount: 6000, holdFrom: daysAgo(40) }),
        entry({ amount: -1500, holdFrom: null }),
        entry({ amount: 2000, holdFrom: daysAgo(3) }),
        entry({ amount: 900, status: "paid", payoutId: 1 }),
      ],
      now,
      30,
    );
    expect(totals).toEqual({ pending: 2000, held: 0, payable: 4500, in_payout: 0, paid: 900 });
  });
});

describe("reversals", () => {
  it("share the hold of an unpaid commission (a refund before payout voids it)", () => {
    const sale = daysAgo(5);
    expect(reversalHoldFrom([{ status: "pending", payoutId: null, holdFrom: sale }])).toEqual(sale);
    expect(reversalHoldFrom([{ status: "held", payoutId: null, holdFrom: sale }])).toEqual(sale);
    const both = balancesByState(
      [entry({ amount: 3000, holdFrom: sale }), entry({ amount: -3000, holdFrom: sale })],
      new Date(now.getTime() + 30 * DAY),
      30,
    );
    expect(both.payable).toBe(0);
  });

  it("after payout (or while in a run) take effect at once: a negative balance carried", () => {
    expect(reversalHoldFrom([{ status: "paid", payoutId: 3, holdFrom: daysAgo(60) }])).toBeNull();
    expect(reversalHoldFrom([{ status: "pending", payoutId: 3, holdFrom: daysAgo(60) }])).toBeNull();
    expect(reversalHoldFrom([])).toBeNull();
  });
});

const a = (payable: number, payoutEmail: string | null = "pay@example.com") => ({
  affiliateUserId: "u",
  username: "u",
  payoutEmail,
  payable,
});

describe("payout decisions", () => {
  it("pays at or above the minimum; blocks without an email; carries the rest", () => {
    expect(decidePayout(a(5000), 5000)).toBe("pay");
    expect(decidePayout(a(4999), 5000)).toBe("below_minimum");
    expect(decidePayout(a(9000, null), 5000)).toBe("blocked");
    expect(decidePayout(a(-1200), 5000)).toBe("negative");
    expect(decidePayout(a(1, null), 1)).toBe("blocked");
  });
  it("a plan lists payable affiliates first and leaves out zero balances", () => {
    const plan = planPayoutRun([a(100), { ...a(9000), affiliateUserId: "v" }, { ...a(0), affiliateUserId: "w" }], 5000);
    expect(plan.map((p) => [p.affiliateUserId, p.decision])).toEqual([
      ["v", "pay"],
      ["u", "below_minimum"],
    ]);
  });
});

describe("payment file", () => {
  it("amounts in dollars with two decimals", () => {
    expect([centsToAmount(5000), centsToAmount(123456), centsToAmount(7), centsToAmount(-250)]).toEqual([
      "50.00",
      "1234.56",
      "0.07",
      "-2.50",
    ]);
  });
  it("PayPal Payouts rows: email, amount, currency, id, note, wallet; no header", () => {
    expect(payoutCsv(7, [{ payoutId: 12, email: "a@example.com", amount: 6120 }])).toBe(
      "a@example.com,61.20,USD,PAYOUT-12,AI Automation Apps affiliate commissions (payout run 7),PAYPAL\r\n",
    );
  });
  it("cells cannot become formulas or break the row", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("@x")).toBe("'@x");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("-1,2")).toBe(`"'-1,2"`);
  });
  it("payout emails: addresses only, never one a spreadsheet would run", () => {
    expect(payoutEmailProblem("pay@example.com")).toBeNull();
    const bad = ["", "no-at", "=cmd@x.com", "+a@x.com", "-a@x.com", "a@b", "a b@x.com", "a,b@x.com"];
    expect(bad.filter((b) => payoutEmailProblem(b) === null)).toEqual([]);
  });
});
