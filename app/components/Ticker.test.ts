import { describe, expect, it } from "vitest";
import { SAMPLE_TICKERS } from "~/catalogue/marketing";
import { tickerVisibleAt } from "./Ticker";

describe("ticker timing", () => {
  it("is visible for 15 s, hidden for 15 s, every 30 s", () => {
    expect(tickerVisibleAt(0)).toBe(true);
    expect(tickerVisibleAt(14_999)).toBe(true);
    expect(tickerVisibleAt(15_000)).toBe(false);
    expect(tickerVisibleAt(29_999)).toBe(false);
    expect(tickerVisibleAt(30_000)).toBe(true);
    expect(tickerVisibleAt(75_000)).toBe(false);
  });
  it("has 8 sample tickers", () => {
    expect(SAMPLE_TICKERS).toHaveLength(8);
  });
});
