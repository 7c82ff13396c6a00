import { expect, test, type Page } from "@playwright/test";
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
  await expect(ticker.locator(".animate-ticker > div").first().locator("> span")).toHaveCount(8);
  await page.clock.runFor(16_000);
  await expect(ticker).toBeHidden();
  await page.clock.runFor(15_000);
  await expect(page.getByTestId("ticker")).toBeVisible();
});

/** The scroll's state as the browser runs it ("none" when there is no animation at all). */
const scroll = (page: Page) =>
  page
    .locator("[data-ticker] .animate-ticker")
    .evaluate((el) => (getComputedStyle(el).animationName === "none" ? "none" : getComputedStyle(el).animationPlayState));

/** Pointer and focus out of the banner, which otherwise hold it (WCAG 2.2.2). */
async function leaveTicker(page: Page) {
  await page.mouse.move(640, 600);
  await page
    .locator("main h1")
    .first()
    .evaluate((el) => {
      el.setAttribute("tabindex", "-1");
      el.focus();
    });
}

// WCAG 2.2.2 Pause, Stop, Hide. "/" hydrates the ticker as an island, "/apps" inside React Router.
test.describe("ticker pause (WCAG 2.2.2)", () => {
  test.use({ reducedMotion: "no-preference" });

  for (const path of ["/", "/apps"]) {
    test(`the keyboard-reachable toggle stops the scroll and the show/hide cycle, on ${path}`, async ({ page }) => {
      await page.clock.install();
      await gotoHydrated(page, path);
      const ticker = page.getByTestId("ticker");
      const pause = ticker.getByRole("button", { name: "Pause announcements" });
      await expect(pause).toBeVisible();
      expect(await scroll(page)).toBe("running");

      // Reached with Tab from the top of the page, pressed with the keyboard.
      let reached = false;
      for (let i = 0; i < 30 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await pause.evaluate((el) => el === document.activeElement);
      }
      expect(reached, "Tab reaches the pause button").toBe(true);
      // Focus inside holds the scroll already.
      expect(await scroll(page)).toBe("paused");
      await page.keyboard.press("Enter");
      const play = ticker.getByRole("button", { name: "Play announcements" });
      await expect(play).toBeVisible();

      // Paused: no scroll and no hiding, with pointer and focus elsewhere.
      await leaveTicker(page);
      expect(await scroll(page)).toBe("paused");
      await page.clock.runFor(45_000);
      await expect(ticker).toBeVisible();
      expect(await scroll(page)).toBe("paused");

      // Play again: both resume (the pause kept the cycle at the start: 15 s more to go).
      await play.click();
      await expect(pause).toBeVisible();
      expect(await scroll(page)).toBe("running");
      await leaveTicker(page);
      await page.clock.runFor(16_000);
      await expect(ticker).toBeHidden();
    });
  }

  test("hover and focus hold the scroll and the cycle; Play while inside scrolls again", async ({ page }) => {
    await page.clock.install();
    await gotoHydrated(page, "/apps");
    const ticker = page.getByTestId("ticker");
    await ticker.hover({ position: { x: 200, y: 16 } });
    expect(await scroll(page)).toBe("paused");
    await page.clock.runFor(20_000);
    await expect(ticker).toBeVisible();
    await page.mouse.move(640, 600);
    expect(await scroll(page)).toBe("running");

    await ticker.getByRole("button", { name: "Pause announcements" }).focus();
    expect(await scroll(page)).toBe("paused");
    await page.keyboard.press("Space");
    await page.keyboard.press("Space");
    await expect(ticker.getByRole("button", { name: "Pause announcements" })).toBeVisible();
    expect(await scroll(page), "Play asked for motion, focus inside or not").toBe("running");
  });

  test("a pause lasts to the next page", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: "Pause announcements" }).click();
    await gotoHydrated(page, "/how-it-works");
    await expect(page.getByRole("button", { name: "Play announcements" })).toBeVisible();
    await leaveTicker(page);
    expect(await scroll(page)).toBe("paused");
  });
});

test("with reduced motion the ticker does not scroll, and the toggle still stops the cycle", async ({ page }) => {
  // The project's default (playwright.config.ts): prefers-reduced-motion: reduce.
  await page.clock.install();
  await gotoHydrated(page, "/");
  expect(await scroll(page)).toBe("none");
  await page.getByTestId("ticker").getByRole("button", { name: "Pause announcements" }).click();
  await leaveTicker(page);
  await page.clock.runFor(20_000);
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
