import { describe, expect, it } from "vitest";
import { creditNow, dueNow, prorate } from "./proration.server";

const start = new Date("2026-11-01T00:00:00Z");
const end = new Date("2026-12-01T00:00:00Z");

describe("proration of a plan change in the middle of a period", () => {
  it("an upgrade halfway through charges half the difference", () => {
    const p = prorate({
      oldAmount: 49_900,
      newAmount: 99_900,
      periodStart: start,
      periodEnd: end,
      at: new Date("2026-11-16T00:00:00Z"),
    });
    expect(p).toEqual({ remainingSeconds: 15 * 86_400, periodSeconds: 30 * 86_400, credit: 24_950, charge: 49_950, net: 25_000 });
    expect(dueNow(p.net)).toBe(25_000);
    expect(creditNow(p.net)).toBe(0);
  });

  it("a downgrade is a credit, each side rounded to the cent on its own", () => {
    // 10 of 30 days left: 99,900/3 = 33,300 exactly; 9,900/3 = 3,300.
    const p = prorate({
      oldAmount: 99_900,
      newAmount: 9_900,
      periodStart: start,
      periodEnd: end,
      at: new Date("2026-11-21T00:00:00Z"),
    });
    expect(p).toMatchObject({ credit: 33_300, charge: 3_300, net: -30_000 });
    expect(dueNow(p.net)).toBe(0);
    expect(creditNow(p.net)).toBe(30_000);
    // 7 of 30 days left: 49,900 x 7/30 = 11,643.33 -> 11,643; 19,900 x 7/30 = 4,643.33 -> 4,643.
    const q = prorate({
      oldAmount: 49_900,
      newAmount: 19_900,
      periodStart: start,
      periodEnd: end,
      at: new Date("2026-11-24T00:00:00Z"),
    });
    expect(q).toMatchObject({ credit: 11_643, charge: 4_643, net: -7_000 });
  });

  it("rounds halves like Math.round, per line, so the net can differ from rounding the difference", () => {
    // 1 second of 2 left: 101 x 1/2 = 50.5 -> 51; 200 x 1/2 = 100.
    const p = prorate({
      oldAmount: 101,
      newAmount: 200,
      periodStart: new Date(0),
      periodEnd: new Date(2000),
      at: new Date(1000),
    });
    expect(p).toMatchObject({ credit: 51, charge: 100, net: 49 });
  });

  it("at the end of the period nothing is prorated; before its start the whole period is", () => {
    expect(prorate({ oldAmount: 9_900, newAmount: 49_900, periodStart: start, periodEnd: end, at: end })).toMatchObject({
      net: 0,
    });
    expect(
      prorate({ oldAmount: 9_900, newAmount: 49_900, periodStart: start, periodEnd: end, at: new Date("2027-01-01") }),
    ).toMatchObject({
      remainingSeconds: 0,
      net: 0,
    });
    expect(
      prorate({ oldAmount: 9_900, newAmount: 49_900, periodStart: start, periodEnd: end, at: new Date("2026-10-01") }),
    ).toMatchObject({
      net: 40_000,
    });
  });
});
