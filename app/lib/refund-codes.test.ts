import { describe, expect, it } from "vitest";
import { dollarsToCents } from "./refund-codes";

describe("dollarsToCents", () => {
  it("reads whole dollars, cents and the ways people type them", () => {
    expect(dollarsToCents("12")).toBe(1200);
    expect(dollarsToCents("12.5")).toBe(1250);
    expect(dollarsToCents("12.05")).toBe(1205);
    expect(dollarsToCents(" $1,234.50 ")).toBe(123_450);
    expect(dollarsToCents("0.01")).toBe(1);
    expect(dollarsToCents("0")).toBe(0);
  });

  it("refuses what is not an amount of at most two decimals", () => {
    for (const typed of ["", "abc", "1.234", "-5", "1e3", "12.", ".5", "1 000"]) expect(dollarsToCents(typed)).toBeNull();
  });
});
