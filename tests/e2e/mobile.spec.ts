import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";

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
  "/payment-success?session_id=cs_test_1",
  "/payment-cancel",
  "/ref/jane",
  "/no-such-page",
];

test.describe("phone-sized viewport", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const route of PUBLIC_ROUTES) {
    test(`${route} fits 390 px without horizontal scrolling and passes axe`, async ({ page }) => {
      await gotoHydrated(page, route);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "page is wider than the viewport").toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});
