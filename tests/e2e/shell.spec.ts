import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";

// "/" hydrates the bar as an island without a router (a click loads a document); "/apps" is a
// React Router page (a click navigates on the client, and the menu must close by itself).
for (const start of ["/", "/apps"]) {
  test(`navigation bar links and the Resources menu, from ${start}`, async ({ page }) => {
    await gotoHydrated(page, start);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "AI Automation Apps home" })).toHaveAttribute("href", "/");
    await expect(nav.getByRole("link", { name: "Solutions" })).toHaveAttribute("href", "/apps");
    const demo = nav.getByRole("link", { name: /^BOOK DEMO/ });
    await expect(demo).toHaveAttribute("target", "_blank");
    await nav.getByRole("button", { name: "Resources" }).click();
    await nav.getByRole("link", { name: "How It Works" }).click();
    await expect(page).toHaveURL(/\/how-it-works$/);
    await expect(nav.getByRole("link", { name: "Industries" })).toBeHidden();
  });

  test(`mobile menu opens and closes on route change, from ${start}`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, start);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toBeVisible();
    await toggle.click();
    const menu = page.locator("#mobile-menu");
    await expect(menu).toBeVisible();
    // Escape closes it and puts focus back on its button.
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
    await toggle.click();
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Industries" }).click();
    await expect(page).toHaveURL(/\/industries$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
  });
}

test("the mobile menu button toggles the menu and says so", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoHydrated(page, "/");
  const menu = page.locator("#mobile-menu");
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeVisible();
  const close = page.getByRole("button", { name: "Close menu" });
  await expect(close).toHaveAttribute("aria-expanded", "true");
  await close.click();
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
});

test("ticker shows 8 sample tickers, hides after 15 s and returns at 30 s", async ({ page }) => {
  await page.clock.install();
  await gotoHydrated(page, "/");
  const ticker = page.getByTestId("ticker");
  await expect(ticker).toBeVisible();
  await expect(ticker.locator("> div > div").first().locator("> span")).toHaveCount(8);
  await page.clock.runFor(16_000);
  await expect(ticker).toBeHidden();
  await page.clock.runFor(15_000);
  await expect(page.getByTestId("ticker")).toBeVisible();
});

test("unknown paths show the not-found page with status 404", async ({ page }) => {
  const response = await page.goto("/definitely/not/here");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectNoAxeViolations(page);
});
