import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

test.describe("public pages' error screen", () => {
  test("a busy server's 503 on /apps' data keeps the header and footer and offers Try again", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    // The admission limiter's answer (app/server/http/admission.server.ts) to the next data request.
    await page.route(/\/apps\.data/, (route) =>
      route.fulfill({
        status: 503,
        headers: { "Retry-After": "5", "Content-Type": "text/plain" },
        body: "The server is busy. Please try again in a few seconds.",
      }),
    );
    await page.getByRole("link", { name: "Show more solutions" }).click();

    const alert = page.getByTestId("marketing-error");
    await expect(alert.getByRole("heading", { level: 1 })).toHaveText(/could not be loaded|server is busy/);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.locator("footer")).toBeVisible();
    await expect(alert.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/apps?show=24");
    await expect(alert.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    await expect(page.locator("body")).not.toContainText("turbo-stream");
    await expect(page.locator("body")).not.toContainText("Unexpected");
    await screenshot(page, "error-503", { fullPage: false });
    await expectNoAxeViolations(page);

    // Try again loads the page afresh once the server answers.
    await page.unroute(/\/apps\.data/);
    await alert.getByRole("link", { name: "Try again" }).click();
    await expect(page.getByText("Showing 24 of 181")).toBeVisible();
  });

  test("a dropped connection on a client navigation keeps the site around the message", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    await page.route(/\/apps\.data/, (route) => route.abort("internetdisconnected"));
    await page.getByRole("link", { name: "Show more solutions" }).click();
    const alert = page.getByTestId("marketing-error");
    await expect(alert.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.locator("footer")).toBeVisible();
    await expect(alert.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/apps?show=24");
    await expect(page.locator("body")).not.toContainText("Failed to fetch");
  });
});
