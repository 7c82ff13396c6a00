import { expect, test, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

/** Clicks `button` (which opens the hosted checkout in a new tab), pays with the test card and closes that tab. */
async function payInNewTab(context: BrowserContext, button: Locator) {
  const [checkout] = await Promise.all([context.waitForEvent("page"), button.click()]);
  await checkout.waitForURL(/\/checkout\/local\/cs_local_/);
  await checkout.waitForSelector("html[data-hydrated]");
  await payWith(checkout, "4242 4242 4242 4242");
  await checkout.waitForURL(/\/dashboard\/billing/);
  await checkout.close();
}

/** At desktop (1280) and phone (375) widths, nothing is wider than the window; a screenshot of each. */
async function checkWidths(page: Page, name: string) {
  for (const [label, width, height] of [
    ["desktop", 1280, 900],
    ["mobile", 375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await screenshot(page, `${name}-${label}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const dollars = (text: string | null) => Number((text ?? "").replace(/[$,]/g, ""));

test("a subscriber switches plan: the prorated figure first, then the same subscription on the new plan and a history line", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context } = await signedInContext(browser, "plan-change", { trial: true });
  const page = await context.newPage();
  await gotoHydrated(page, "/dashboard/billing");
  await payInNewTab(context, page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }));

  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Basic");
  await expect(page.getByText("you see the prorated amount before you confirm")).toBeVisible();
  await expect(page.getByTestId("plan-basic").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await checkWidths(page, "billing-subscriber");

  // The switch opens no new tab: the confirmation is this tab's next page.
  const pages = context.pages().length;
  await page.getByTestId("plan-enterprise").getByRole("button", { name: "Switch to Enterprise" }).click();
  await page.waitForURL(/\/dashboard\/billing\/change\/[0-9a-f-]{36}$/);
  expect(context.pages()).toHaveLength(pages);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Change plan");
  await expect(page.getByTestId("change-from")).toContainText("Basic");
  await expect(page.getByTestId("change-from")).toContainText("$99/month");
  await expect(page.getByTestId("change-to")).toContainText("Enterprise");
  await expect(page.getByTestId("change-to")).toContainText("$999/month");
  // The whole month is left: nearly $999 - $99 is due now.
  const due = dollars(await page.getByTestId("change-due-now").textContent());
  expect(due).toBeGreaterThan(890);
  expect(due).toBeLessThanOrEqual(900);
  await expect(page.getByTestId("change-next-charge")).toContainText(/^\$999 on \w{3} \d{1,2}, \d{4}$/);
  await expectNoAxeViolations(page);
  await checkWidths(page, "change-quote");

  // Confirm: the button says so while it works, then the outcome in words, focused.
  const confirm = page.getByRole("button", { name: /^Confirm and pay \$/ });
  await confirm.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("change-done")).toContainText("Your plan is now Enterprise ($999/month).");
  await expect(page.getByTestId("change-done")).toBeFocused();
  await expectNoAxeViolations(page);
  await checkWidths(page, "change-done");

  // Confirming again (a second post of the same form) changes nothing more.
  const again = await page.request.post(page.url(), {
    headers: { Origin: new URL(page.url()).origin },
    form: { intent: "confirm" },
  });
  expect(again.status()).toBe(200);

  await page.getByRole("link", { name: "Back to billing" }).click();
  await page.waitForURL(/\/dashboard\/billing$/);
  await expect(page.getByTestId("current-plan-name")).toHaveText("Enterprise");
  await expect(page.getByTestId("current-plan-price")).toHaveText("$999/month");
  await expect(page.getByTestId("current-plan-reach")).toHaveText("Unlimited contacts");
  const history = page.getByTestId("billing-history").locator("tbody tr");
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText("Changed plan: Basic → Enterprise");
  await expect(history.first()).toContainText(`$${due.toFixed(2).replace(/\.00$/, "")} prorated`);
  await expect(history.first()).toContainText("Paid");

  // One plan subscription, now Enterprise: the local Manage Billing lists what the database holds.
  await gotoHydrated(page, "/dashboard/billing/manage");
  const managed = page.getByTestId("managed-subscriptions").locator("li");
  await expect(managed).toHaveCount(1);
  await expect(managed.first()).toContainText("Enterprise");
  await expect(managed.first()).toContainText("$999/month");
  await context.close();
});

test("a subscriber's scaling tier is a plan change too; a downgrade shows the credit", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context } = await signedInContext(browser, "tier-change", { trial: true });
  const page = await context.newPage();
  await gotoHydrated(page, "/dashboard/billing");
  await payInNewTab(context, page.getByTestId("plan-pro").getByRole("button", { name: "Choose Pro" }));

  await gotoHydrated(page, "/dashboard/scaling");
  await expect(page.getByTestId("scaling-current-plan")).toHaveText("Pro");
  await expect(page.getByText("you see the prorated amount before you confirm")).toBeVisible();
  // The spec's Downgrade label; for a subscriber it opens the plan change in this tab.
  await page.getByTestId("tier-0").getByRole("button", { name: "Downgrade" }).click();
  await page.waitForURL(/\/dashboard\/billing\/change\//);
  await expect(page.getByTestId("change-to")).toContainText("Scale 10K");
  const credit = dollars(await page.getByTestId("change-credit").textContent());
  expect(credit).toBeGreaterThan(290);
  expect(credit).toBeLessThanOrEqual(300);
  await checkWidths(page, "change-downgrade");
  await page.getByRole("button", { name: "Confirm change" }).click();
  await expect(page.getByTestId("change-done")).toContainText("is credited toward your next invoices");
  await gotoHydrated(page, "/dashboard/scaling");
  await expect(page.getByTestId("scaling-current-plan")).toHaveText("Scale 10K");
  await expect(page.getByTestId("scaling-current-reach")).toHaveText("10,000 contacts per month.");
  await context.close();
});
