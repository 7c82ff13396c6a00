import { describe, expect, it } from "vitest";
import { commissionFor, reversalFor } from "./ledger.server";

describe("commission reversals (docs/decisions/0011)", () => {
  it("rounds 30% of the total refunded once, so partial refunds net the commission to exactly zero", () => {
    const earned = commissionFor(19_900);
    expect(earned).toBe(5970);
    const first = reversalFor({ refunded: 9_945, earned, reversed: 0 });
    const second = reversalFor({ refunded: 19_900, earned, reversed: first });
    expect([first, second]).toEqual([2984, 2986]);
    expect(earned - first - second).toBe(0);
    // Rounded one by one, the same refunds reverse a cent more than was earned.
    expect(commissionFor(9_945) + commissionFor(9_955)).toBe(5971);
  });

  it("never reverses more than was earned, and never a negative amount", () => {
    expect(reversalFor({ refunded: 50_000, earned: 5970, reversed: 0 })).toBe(5970);
    expect(reversalFor({ refunded: 20_400, earned: 5970, reversed: 5970 })).toBe(0);
    expect(reversalFor({ refunded: 100, earned: 0, reversed: 0 })).toBe(0);
    // Reversals recorded before this rule (rounded per refund) are taken into account.
    expect(reversalFor({ refunded: 19_900, earned: 5970, reversed: 5971 })).toBe(0);
  });

  it("many small refunds add up to 30% of their sum", () => {
    const earned = commissionFor(10_001);
    let reversed = 0;
    let refunded = 0;
    for (let i = 0; i < 10_001; i += 1) {
      refunded += 1;
      reversed += reversalFor({ refunded, earned, reversed });
    }
    expect(reversed).toBe(earned);
  });
});
