import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { advanceTicker, Ticker, tickerVisibleAt } from "./Ticker";

describe("ticker timing", () => {
  it("is visible for 15 s, hidden for 15 s, every 30 s", () => {
    expect(tickerVisibleAt(0)).toBe(true);
    expect(tickerVisibleAt(14_999)).toBe(true);
    expect(tickerVisibleAt(15_000)).toBe(false);
    expect(tickerVisibleAt(29_999)).toBe(false);
    expect(tickerVisibleAt(30_000)).toBe(true);
    expect(tickerVisibleAt(75_000)).toBe(false);
  });
  it("stands still while the pointer or focus is inside, so it never hides under them", () => {
    let elapsed = 14_000;
    elapsed = advanceTicker(elapsed, 1_000, true);
    elapsed = advanceTicker(elapsed, 1_000, true);
    expect(elapsed).toBe(14_000);
    expect(tickerVisibleAt(elapsed)).toBe(true);
    elapsed = advanceTicker(elapsed, 1_000, false);
    expect(tickerVisibleAt(elapsed)).toBe(false);
  });
});

describe("ticker markup (server and the cached page: the same for every visitor)", () => {
  const html = renderToString(createElement(Ticker));

  it("has a pause toggle, not pressed, named for what it does", () => {
    const button = /<button[^>]*>/.exec(html)?.[0] ?? "";
    expect(button).toContain('type="button"');
    // The label says what a press does; aria-pressed would make it read "Play announcements, pressed".
    expect(button).not.toContain("aria-pressed");
    expect(button).toContain('aria-label="Pause announcements"');
  });

  it("marks the banner for the CSS that holds the scroll, and starts playing", () => {
    expect(html).toMatch(/<section[^>]*data-ticker=""/);
    expect(html).not.toContain("data-paused");
    expect(html).not.toContain("data-resumed");
  });
});
