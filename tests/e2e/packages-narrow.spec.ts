import { expect, test } from "@playwright/test";
import { gotoHydrated } from "./support/page";

// The smallest phone width WCAG 1.4.10 (reflow) asks for: nothing may scroll sideways.
for (const js of [true, false]) {
  test.describe(`/packages at 320 px${js ? "" : " without JavaScript"}`, () => {
    test.use({ viewport: { width: 320, height: 640 }, javaScriptEnabled: js });

    test("the payment mode switch fits without horizontal scrolling", async ({ page }) => {
      if (js) await gotoHydrated(page, "/packages");
      else await page.goto("/packages");
      const monthly = page.getByText("Monthly Payment", { exact: true });
      await expect(monthly).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(320);
      const box = await monthly.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    });
  });
}
