import { describe, expect, it } from "vitest";
import { savedMessage, withdrawnPriceId } from "./price-change";

describe("withdrawnPriceId", () => {
  it("reads a positive id from a post of exactly intent and priceId", () => {
    expect(withdrawnPriceId({ intent: "cancel-price", priceId: "42" })).toBe(42);
  });

  it("refuses other ids and any extra field", () => {
    for (const priceId of ["0", "-1", "01", "1.5", "abc", "12345678901", ""])
      expect(withdrawnPriceId({ intent: "cancel-price", priceId })).toBeNull();
    expect(withdrawnPriceId({ intent: "cancel-price" })).toBeNull();
    expect(withdrawnPriceId({ intent: "cancel-price", priceId: "4", basePrice: "1" })).toBeNull();
  });
});

describe("savedMessage", () => {
  it("says what changed, or that nothing did", () => {
    expect(savedMessage({ details: true, price: "now" })).toBe("Listing saved. New price in effect.");
    expect(savedMessage({ details: false, price: "scheduled" })).toBe("Price change scheduled.");
    expect(savedMessage({ details: true, price: "none" })).toBe("Listing saved.");
    expect(savedMessage({ details: false, price: "none" })).toBe("Nothing changed.");
  });
});
