import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";

/** Every public page at phone width: no horizontal scrolling, nothing wider than the screen, and axe. */
const PUBLIC_ROUTES = [
  "/",
  "/how-it-works",
  "/results",
  "/industries",
  "/goals?industry=Insurance",
  "/packages?industry=Insurance&goal=add_ai&timeline=standard",
  "/packages?flow=onboarding",
  "/questionnaire",
  "/apps",
  "/live-training",
  "/earn",
  "/distributors",
  "/distributor-success",
  "/payment-success",
  "/payment-success?session_id=cs_test_1",
  "/payment-cancel",
  "/privacy",
  "/terms",
  "/ref/jane",
  "/no-such-page",
];

test.describe("phone-sized viewport", () => {
  // Not isMobile: a mobile viewport lets the page widen to its content, which would hide overflow.
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  for (const route of PUBLIC_ROUTES) {
    test(`${route} fits 390 px without horizontal scrolling and passes axe`, async ({ page }) => {
      await gotoHydrated(page, route);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, "page is wider than the viewport").toBeLessThanOrEqual(0);
      // Elements poking out to the right (clipped by an overflow-x:hidden ancestor or not).
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll("main *")]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return (
              r.width > 0 &&
              r.right > document.documentElement.clientWidth + 1 &&
              !el.closest("[data-ticker], [aria-hidden='true'], .animate-ticker")
            );
          })
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}`),
      );
      expect(wide, "elements wider than the viewport").toEqual([]);
      await expectNoAxeViolations(page);
    });
  }
});
