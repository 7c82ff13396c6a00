import { expect, test, type Page } from "@playwright/test";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { CUSTOMER_PASSWORD, payWith, signedInContext, startDashboardTrial } from "./support/customer";
import { createVerifiedAccount } from "./support/loopback";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

/** A zone far from UTC, so a date shown in the customer's zone is told apart from the server's. */
const CUSTOMER_ZONE = "Pacific/Auckland";

/** What the page should show for `iso` in the customer's zone (LocalDate's format). */
function inCustomerZone(iso: string, withTime: boolean): string {
  const date = new Date(iso);
  const text = new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    ...(withTime ? { timeStyle: "short" } : {}),
    timeZone: CUSTOMER_ZONE,
  }).format(date);
  if (!withTime) return text;
  const zone = new Intl.DateTimeFormat("en-US", { timeZone: CUSTOMER_ZONE, timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName")!.value;
  return `${text} ${zone}`;
}

async function buy(page: Page, data: Record<string, unknown>) {
  const res = await page.context().request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data });
  expect(res.status(), await res.text()).toBe(200);
  await gotoHydrated(page, ((await res.json()) as { url: string }).url);
  await payWith(page, "4242 4242 4242 4242");
  await page.waitForURL((url) => !url.pathname.startsWith("/checkout/local/"));
}

test("Manage Billing on the local provider: subscriptions with cancel, the test card, receipts; a receipt opened and printed", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("manage");
  const { cookie } = await createVerifiedAccount(email, CUSTOMER_PASSWORD, siteOrigin());
  const context = await browser.newContext({ timezoneId: CUSTOMER_ZONE });
  await context.addCookies(siteCookies(cookie));
  await startDashboardTrial(context);
  const page = await context.newPage();

  // Before anything is bought there is nothing to manage.
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByRole("link", { name: "Manage Billing" })).toHaveCount(0);

  await buy(page, { kind: "plan", planType: "basic" });
  await buy(page, { kind: "addons", addonIds: ["custom-domain-ssl"] });

  // Manage Billing opens the local page in this tab: no new tab, no error.
  await gotoHydrated(page, "/dashboard/billing");
  const popups: Page[] = [];
  context.on("page", (p) => popups.push(p));
  const portalCalls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/billing/portal")) portalCalls.push(r.url());
  });
  await page.getByRole("link", { name: "Manage Billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing\/manage$/);
  await expect(page.getByRole("heading", { name: "Manage Billing", level: 1 })).toBeVisible();
  expect(popups).toEqual([]);
  expect(portalCalls).toEqual([]);

  const subscriptions = page.getByTestId("managed-subscriptions").getByRole("listitem");
  await expect(subscriptions).toHaveCount(2);
  const plan = subscriptions.filter({ hasText: "Basic" });
  const addon = subscriptions.filter({ hasText: "Custom Domain & SSL" });
  await expect(plan).toContainText("Billing plan");
  await expect(plan).toContainText("$99/month");
  await expect(plan).toContainText("Active");
  await expect(addon).toContainText("Add-ons");
  await expect(addon).toContainText("$19/month");
  // Next charge dates in the customer's time zone.
  for (const row of [plan, addon]) {
    const next = row.getByTestId("next-charge");
    const iso = (await next.getAttribute("datetime"))!;
    expect(new Date(iso).getTime()).toBeGreaterThan(Date.now());
    await expect(next).toHaveText(inCustomerZone(iso, false));
  }
  await expect(page.getByTestId("payment-method")).toHaveText("Test card ending 4242");
  const receipts = page.getByTestId("receipts").getByRole("listitem");
  await expect(receipts).toHaveCount(2);
  await expectNoAxeViolations(page);

  // Cancel the add-on: a confirmation first, then it ends now.
  await addon.getByRole("button", { name: "Cancel Custom Domain & SSL" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel Custom Domain & SSL?" });
  await expect(dialog).toContainText("It ends now and is not charged again.");
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Keep subscription" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(subscriptions).toHaveCount(2);
  await addon.getByRole("button", { name: "Cancel Custom Domain & SSL" }).click();
  await dialog.getByRole("button", { name: "Yes, cancel subscription" }).click();
  await expect(page.getByTestId("cancel-result")).toHaveText(
    "Your subscription is cancelled. It has ended and will not be charged again.",
  );
  await expect(dialog).toHaveCount(0);
  await expect(subscriptions).toHaveCount(1);

  // Cancel the plan: it runs to the end of its period.
  await plan.getByRole("button", { name: "Cancel Basic" }).click();
  const planDialog = page.getByRole("dialog", { name: "Cancel Basic?" });
  await expect(planDialog).toContainText("It stays active until the end of the current billing period");
  await planDialog.getByRole("button", { name: "Yes, cancel subscription" }).click();
  await expect(page.getByTestId("cancel-result")).toContainText("It stays active until the end of the current billing period");
  await expect(plan).toContainText("Cancels at period end");
  await expect(plan.getByTestId("ends-on")).toBeVisible();
  await expect(plan.getByTestId("next-charge")).toHaveCount(0);
  await expect(plan.getByRole("button", { name: /^Cancel/ })).toHaveCount(0);

  // The database agrees: the add-on is no longer owned, the plan cancels at its period end.
  await gotoHydrated(page, "/dashboard/addons");
  await expect(page.getByText("Owned", { exact: true })).toHaveCount(0);
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("cancels-on")).toContainText("Cancels on");
  await expect(page.getByTestId("plan-status")).toHaveText("Active");

  // Billing history links each paid order to its receipt.
  const history = page.getByTestId("billing-history");
  const planRow = history.getByRole("row").filter({ hasText: "Basic" });
  const receiptLink = planRow.getByRole("link", { name: /^Receipt R-\d{6} for Basic Plan$/ });
  const number = ((await receiptLink.textContent()) ?? "").replace("Receipt ", "");
  await receiptLink.click();
  await expect(page).toHaveURL(/\/dashboard\/billing\/receipts\/\d+$/);
  await page.waitForSelector("html[data-hydrated]");
  const receiptUrl = page.url();

  const receipt = page.getByTestId("receipt");
  await expect(receipt.getByRole("heading", { name: "Receipt", level: 1 })).toBeVisible();
  await expect(page.getByTestId("receipt-number")).toHaveText(number);
  await expect(page.getByTestId("receipt-company")).toContainText("AI Automation Apps");
  await expect(page.getByTestId("receipt-company")).toContainText("/dashboard/support");
  await expect(page.getByTestId("receipt-customer")).toContainText(email);
  await expect(page.getByTestId("receipt-payment-method")).toHaveText("Test card ending 4242");
  await expect(page.getByTestId("receipt-order")).toHaveText(/^[0-9a-f-]{36}$/);
  const lines = page.getByTestId("receipt-lines").locator("tbody tr");
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText("Basic");
  await expect(lines.first()).toContainText("Monthly plan");
  await expect(lines.first()).toContainText("$99");
  await expect(page.getByTestId("receipt-total")).toHaveText("$99");
  await expect(receipt).toContainText("Total paid (USD)");
  const paidAt = page.getByTestId("receipt-paid-at");
  await expect(paidAt).toHaveText(inCustomerZone((await paidAt.getAttribute("datetime"))!, true));
  await expectNoAxeViolations(page);

  // Print: the browser's print dialog, and a print layout without the page's own links and buttons.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await page.getByRole("button", { name: "Print" }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Back to Subscription & Billing" })).toBeHidden();
  await expect(page.getByTestId("receipt-total")).toBeVisible();
  await screenshot(page, "receipt-print");
  await page.emulateMedia({ media: "screen" });

  // Another customer opening the same receipt gets the not-found page.
  const other = await signedInContext(browser, "manage-other", { trial: true });
  const stranger = await other.context.newPage();
  const res = await stranger.goto(receiptUrl);
  expect(res?.status()).toBe(404);
  await expect(stranger.getByText(number)).toHaveCount(0);
  await expect(stranger.getByText(email)).toHaveCount(0);
  await other.context.close();
  await context.close();
});
