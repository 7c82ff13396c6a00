import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

// ADR 0016: the page's script loads after the first paint, and may never load. The bar's menus must
// work from the server's HTML alone.
test.describe("navigation bar without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const start of ["/", "/apps"]) {
    test(`the phone menu opens, closes and navigates, from ${start}`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(start);
      const menu = page.locator("#mobile-menu");
      await expect(menu).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(menu).toBeVisible();
      await expect(menu.getByRole("link", { name: "Solutions" })).toHaveAttribute("href", "/apps");
      await expect(menu.getByRole("link", { name: "How It Works" })).toHaveAttribute("href", "/how-it-works");
      await expect(menu.getByRole("link", { name: /^BOOK DEMO/ })).toHaveAttribute("target", "_blank");
      if (start === "/apps") await screenshot(page, "mobile-menu-no-js", { fullPage: false });
      await page.getByRole("button", { name: "Close menu" }).click();
      await expect(menu).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      await menu.getByRole("link", { name: "Industries" }).click();
      await expect(page).toHaveURL(/\/industries$/);
      await expect(page.locator("#mobile-menu")).toBeHidden();
    });
  }

  test("the desktop Resources menu shows its links on hover and keyboard focus", async ({ page }) => {
    await page.goto("/apps");
    const nav = page.getByRole("navigation", { name: "Main" });
    const link = nav.getByRole("link", { name: "How It Works" });
    await expect(link).toBeHidden();
    await nav.getByRole("button", { name: "Resources" }).hover();
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/how-it-works$/);

    await page.mouse.move(5, 600);
    await nav.getByRole("button", { name: "Resources" }).focus();
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "How It Works" })).toBeFocused();
  });
});

test("the phone menu opened by script closes on Escape and on a client-side navigation, axe clean", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoHydrated(page, "/apps");
  const toggle = page.getByRole("button", { name: "Open menu" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  const menu = page.locator("#mobile-menu");
  await expect(menu).toBeVisible();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await expectNoAxeViolations(page);
  await menu.getByRole("link", { name: "How It Works" }).focus();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  await page.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "Industries" }).click();
  await expect(page).toHaveURL(/\/industries$/);
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
});
