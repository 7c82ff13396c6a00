import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

/** A verified customer with a started trial (so the trial overlay does not cover the pages). */
async function customer(browser: Browser): Promise<BrowserContext> {
  return (await signedInContext(browser, "billing-subs", { trial: true })).context;
}

async function startCheckout(context: BrowserContext, data: Record<string, unknown>): Promise<string> {
  const res = await context.request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

test("billing: a monthly add-on subscriber sees the subscription; the return toast says success only for a paid order", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await customer(browser);
  const page = await context.newPage();

  // Someone just opens ?success=true: no payment to report, never 'Payment successful'.
  await gotoHydrated(page, "/dashboard/billing?success=true");
  await expect(page.getByText("Subscription status updated")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByText("Payment successful")).toHaveCount(0);

  // A checkout not paid yet: being confirmed.
  const pending = await startCheckout(context, { kind: "plan", planType: "basic" });
  const pendingId = pending.split("/").pop()!;
  await gotoHydrated(page, `/dashboard/billing?success=true&session_id=${pendingId}`);
  await expect(page.getByText("We're confirming your payment")).toBeVisible();
  await expect(page.getByText("Payment successful")).toHaveCount(0);

  // The sync fails: the spec's refresh failure, not a success.
  await page.route("**/api/billing/sync", (route) => route.fulfill({ status: 500, body: "{}" }));
  await gotoHydrated(page, `/dashboard/billing?success=true&session_id=${pendingId}`);
  await expect(page.getByText("Failed to refresh subscription status")).toBeVisible();
  await expect(page.getByText("Payment successful")).toHaveCount(0);
  await page.unroute("**/api/billing/sync");

  // One add-on, paid monthly in the test checkout.
  const url = await startCheckout(context, { kind: "addons", addonIds: ["custom-domain-ssl"] });
  await gotoHydrated(page, url);
  await payWith(page, "4242 4242 4242 4242");
  await page.waitForURL(/\/dashboard\/addons/);
  await expect(page.getByText("Add-ons activated")).toBeVisible();

  // The billing page agrees with the overview: subscribed, and the subscription is listed.
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("plan-status")).toHaveText("Active");
  await expect(page.getByTestId("current-plan-name")).toHaveText("No billing plan");
  await expect(page.getByText("No paid subscription yet")).toHaveCount(0);
  const subs = page.getByTestId("paid-subscriptions");
  await expect(subs.getByTestId("paid-subscriptions-summary")).toContainText("You have 1 active paid subscription.");
  await expect(subs.getByRole("listitem")).toHaveCount(1);
  await expect(subs.getByRole("listitem")).toContainText("Custom Domain & SSL");
  await expect(subs.getByRole("listitem")).toContainText("$19/month");
  await expect(subs.getByRole("listitem")).toContainText("Active");
  // The local test checkout's Manage Billing is this site's own page (with Stripe, Stripe's portal).
  await expect(page.getByRole("link", { name: "Manage Billing" })).toHaveAttribute("href", "/dashboard/billing/manage");
  await expect(page.getByTestId("no-portal")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, "billing-addon-subscriber");
  await context.close();
});

test("local checkout: rejected fields get an error summary (role=alert), focus on the first invalid field, one submission at a time", async ({
  browser,
}) => {
  const context = await customer(browser);
  const page = await context.newPage();
  const url = await startCheckout(context, { kind: "addons", addonIds: ["custom-domain-ssl"] });
  await gotoHydrated(page, url);

  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("01/20");
  await page.getByLabel("CVC").fill("1");
  await page.getByRole("button", { name: /^Pay / }).click();

  const summary = page.getByTestId("checkout-error-summary");
  await expect(summary).toHaveAttribute("role", "alert");
  await expect(summary).toContainText("Check these 2 fields:");
  await expect(summary.getByRole("link", { name: "Expiry (MM/YY): Enter a future expiry date as MM/YY." })).toHaveAttribute(
    "href",
    "#expiry",
  );
  await expect(summary.getByRole("link", { name: "CVC: Enter the 3 or 4 digit security code." })).toBeVisible();
  const expiry = page.getByLabel("Expiry (MM/YY)");
  await expect(expiry).toBeFocused();
  await expect(expiry).toHaveAttribute("aria-invalid", "true");
  await expect(expiry).toHaveAttribute("aria-describedby", "expiry-error");
  await expect(page.getByLabel("Card number")).not.toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await screenshot(page, "local-checkout-errors");

  // Pay cannot be submitted twice: two submits in the same moment (before the button is disabled)
  // send one request (React Router keeps only the latest navigation).
  await expiry.fill("12/34");
  await page.getByLabel("CVC").fill("123");
  let posts = 0;
  await page.route(
    (u) => u.pathname.startsWith("/checkout/local/"),
    async (route) => {
      if (route.request().method() === "POST") posts += 1;
      await route.continue();
    },
  );
  await page.evaluate(() => {
    const form = document.querySelector("form")!;
    form.requestSubmit();
    form.requestSubmit();
  });
  await page.waitForURL(/\/dashboard\/addons/);
  expect(posts).toBe(1);
  await context.close();
});
