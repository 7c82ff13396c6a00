import { expect, test } from "@playwright/test";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { CUSTOMER_PASSWORD, startDashboardTrial } from "./support/customer";
import { createVerifiedAccount } from "./support/loopback";
import { gotoHydrated } from "./support/page";

/**
 * A customer in New York sees the onboarding call at 2:00 PM their time, with the zone's name, from
 * the server's own HTML on (no UTC first), and can change the zone on the settings page.
 */
test("a customer in New York books the onboarding call at 2:00 PM New York time and can change their zone", async ({
  browser,
}) => {
  test.slow();
  const email = uniqueEmail("tz");
  const { cookie } = await createVerifiedAccount(email, CUSTOMER_PASSWORD, siteOrigin(), {});
  const context = await browser.newContext({ timezoneId: "America/New_York" });
  try {
    await context.addCookies(siteCookies(cookie));
    await startDashboardTrial(context);
    const page = await context.newPage();

    // The first dashboard view tells the server the browser's zone.
    const stored = page.waitForResponse((r) => r.url().endsWith("/api/dashboard/visit") && r.ok());
    await gotoHydrated(page, "/dashboard");
    await stored;

    await gotoHydrated(page, "/dashboard/onboarding");
    await expect(page.getByText("two days ahead at 2:00 PM your time (America/New York)")).toBeVisible();
    await page.getByRole("button", { name: "Schedule call" }).click();
    await expect(page.getByText("Your onboarding call has been scheduled!")).toBeVisible();
    const callTime = page.getByTestId("call-time");
    await expect(callTime).toHaveText(/ at 2:00 PM E[SD]T$/);

    // The server renders it so: the page's HTML, before any script, already says New York time.
    const html = await (await context.request.get("/dashboard/onboarding")).text();
    expect(html).toMatch(/ at 2:00 PM E[SD]T/);
    expect(html).not.toMatch(/2:00 PM UTC/);

    // The settings page shows the zone and changes it; the same call is then shown in Berlin time.
    await gotoHydrated(page, "/dashboard/settings");
    const select = page.getByLabel("Your time zone");
    await expect(select).toHaveValue("America/New_York");
    await expect(page.getByTestId("time-zone-now")).toContainText(/It is now .* E[SD]T there\./);
    await select.selectOption("Europe/Berlin");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByText("Time zone saved.")).toBeVisible();
    await expect(select).toHaveValue("Europe/Berlin");
    await expect(page.getByTestId("time-zone-now")).toContainText("This browser is set to America/New York.");

    await gotoHydrated(page, "/dashboard/onboarding");
    await expect(callTime).toHaveText(/ PM GMT\+[12]$/);
  } finally {
    await context.close();
  }
});
