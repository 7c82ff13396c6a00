import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { quoteApp } from "../../app/catalogue/pricing";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

const app = allApps().find((a) => a.id === 7)!;

/**
 * A verified customer in a browser context of its own. The account is created from a loopback
 * address of its own (sign-up is rate limited per IP) and its session cookie put in the context;
 * the trial is started so the dashboard's trial overlay does not cover /dashboard pages.
 */
async function customer(browser: Browser): Promise<BrowserContext> {
  return (await signedInContext(browser, "checkout", { trial: true })).context;
}

async function startCheckout(context: BrowserContext, data: Record<string, unknown>) {
  return context.request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data });
}

test("a signed-in customer starts an app's Rush Delivery trial: test checkout, success page, billing lists the trial", async ({
  browser,
}) => {
  const context = await customer(browser);
  const page = await context.newPage();
  const rush = quoteApp(app, "express");

  await gotoHydrated(page, `/apps?q=${encodeURIComponent(app.name)}`);
  await page.getByRole("tab", { name: "Rush Delivery" }).click();
  const card = page.getByRole("article", { name: app.name, exact: true });
  await expect(card.getByTestId("app-price")).toHaveText(rush.display);

  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    card.getByRole("button", { name: "Start 3-Day Trial" }).click(),
  ]);
  await checkout.waitForLoadState();
  await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_[A-Za-z0-9_-]+$/);
  await checkout.waitForSelector("html[data-hydrated]");
  await expect(checkout.getByText("TEST PAYMENT — no real card is charged")).toBeVisible();
  await expect(checkout.getByTestId("checkout-item")).toHaveText(app.name);
  await expect(checkout.getByTestId("checkout-tab")).toHaveText("Rush Delivery");
  await expect(checkout.getByTestId("checkout-amount")).toHaveText(rush.display);
  // A one-time build's trial: nothing today, the whole amount when the 3 days end (ADR trial-then-capture).
  await expect(checkout.getByTestId("checkout-due-today")).toHaveText("$0");
  await expect(checkout.getByTestId("checkout-charge-amount")).toHaveText(rush.display);
  await expect(card.getByRole("button", { name: "Start 3-Day Trial" })).toBeEnabled();
  await expectNoAxeViolations(checkout);
  const checkoutUrl = checkout.url();

  // Another customer cannot see this checkout.
  const stranger = await customer(browser);
  const strangerPage = await stranger.newPage();
  expect((await strangerPage.goto(checkoutUrl))?.status()).toBe(404);
  await stranger.close();

  await checkout.getByLabel("Card number").fill("4242 4242 4242 4242");
  await checkout.getByLabel("Expiry (MM/YY)").fill("12/34");
  await checkout.getByLabel("CVC").fill("123");
  await checkout.getByRole("button", { name: "Start free trial" }).click();
  await expect(checkout).toHaveURL(/\/payment-success\?session_id=cs_local_/);
  await expect(checkout.getByRole("heading", { name: "Your free trial has started!" })).toBeVisible();
  await expect(checkout.getByTestId("order-status")).toHaveText("Free trial started");
  await expect(checkout.getByTestId("order-amount")).toHaveText(rush.display);
  await expect(checkout.getByTestId("order-summary")).toContainText(app.name);

  // The checkout page says the trial has started instead of taking another payment.
  await gotoHydrated(checkout, checkoutUrl);
  await expect(checkout.getByText("Free trial started")).toBeVisible();
  await expect(checkout.getByRole("link", { name: "View your order" })).toHaveAttribute("href", /\/payment-success\?session_id=/);

  // Nothing is owned until the trial's payment is captured; billing lists the trial and its charge.
  await gotoHydrated(page, "/dashboard/automation");
  await expect(page.getByTestId("purchased-app")).toHaveCount(0);
  await gotoHydrated(page, "/dashboard/billing");
  const trial = page.getByTestId("running-trial");
  await expect(trial).toContainText(app.name);
  await expect(trial.getByTestId("trial-charge-amount")).toHaveText(rush.display);
  await context.close();
});

test("declined and unknown cards show their messages; the order stays unpaid", async ({ browser }) => {
  const context = await customer(browser);
  const page = await context.newPage();
  const res = await startCheckout(context, { kind: "app", appId: app.id, tab: "standard" });
  expect(res.status()).toBe(200);
  const { url } = (await res.json()) as { url: string };
  const returnPage = url.replace("/checkout/local/", "/payment-success?session_id=");

  // Before any payment the return page says it is still confirming, not that the order is confirmed,
  // and asks the server once to re-check the order with the payment provider (a late webhook).
  const sync = page.waitForRequest((r) => r.url().endsWith("/api/billing/sync") && r.method() === "POST");
  await gotoHydrated(page, returnPage);
  expect((await sync).postDataJSON()).toEqual({ sessionId: returnPage.split("session_id=")[1] });
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("We're confirming your payment");
  await expect(main).toContainText("Refresh this page in a moment.");
  await expect(page.getByTestId("order-status")).toHaveText("Pending");
  await expect(main).not.toContainText("Your order is confirmed");
  await expect(main.getByRole("link", { name: "Refresh Status" })).toHaveAttribute("href", returnPage);
  await expect(page).toHaveTitle(/^Confirming Your Payment \|/);
  await expectNoAxeViolations(page);

  await gotoHydrated(page, url);
  const pay = (card: string) => payWith(page, card);
  await pay("4000 0000 0000 0002");
  await expect(page.getByRole("alert")).toHaveText("Your card was declined. Try another card.");
  await pay("5555 5555 5555 4444");
  await expect(page.getByRole("alert")).toHaveText(
    "Use a test card: 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined).",
  );
  // Field validation.
  await page.getByLabel("Card number").fill("");
  await page.getByLabel("Expiry (MM/YY)").fill("01/20");
  await page.getByLabel("CVC").fill("1");
  await page.getByRole("button", { name: "Start free trial" }).click();
  await expect(page.getByText("Enter a future expiry date as MM/YY.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("CVC")).toHaveAttribute("aria-invalid", "true");

  // Giving up returns to the apps page, which says nothing was charged.
  await page.getByRole("link", { name: "Cancel and go back" }).click();
  await expect(page).toHaveURL(/\/apps\?canceled=true$/);
  await expect(page.getByRole("status").filter({ hasText: "Checkout canceled" })).toHaveText(
    "Checkout canceled. You have not been charged.",
  );

  await gotoHydrated(page, returnPage);
  await expect(page.getByTestId("order-status")).toHaveText("Declined");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Payment not completed");
  await expect(main).not.toContainText(/confirm/i);
  await expect(page).toHaveTitle(/^Payment Not Completed \|/);
  await expectNoAxeViolations(page);
  await main.getByRole("link", { name: "Try Again" }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await context.close();
});

test("a session that ended after /apps loaded: the server's 401 gives the 'Checkout Error' toast with the sign-in text", async ({
  browser,
}) => {
  const context = await customer(browser);
  const page = await context.newPage();
  await gotoHydrated(page, `/apps?q=${encodeURIComponent(app.name)}`);
  // The page rendered signed in, so the click goes to the server, which no longer knows the visitor.
  await context.clearCookies();
  const card = page.getByRole("article", { name: app.name, exact: true });
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/checkout"));
  await card.getByRole("button", { name: "Start 3-Day Trial" }).click();
  expect((await answer).status()).toBe(401);
  await expect(page.getByText("Checkout Error", { exact: true })).toBeVisible();
  await expect(page.getByText("Please sign in to start your free trial.")).toBeVisible();
  await expect(page.getByText("Authentication Required", { exact: true })).toHaveCount(0);
  await expect(page).toHaveURL(/\/auth\?reason=trial&next=%2Fapps%3Fq%3D/);
  await context.close();
});

test("/apps words a refusal by its code, whatever the server's message says", async ({ browser }) => {
  const context = await customer(browser);
  const page = await context.newPage();
  await gotoHydrated(page, `/apps?q=${encodeURIComponent(app.name)}`);
  // The server's words are for people reading the API: rewording them changes nothing on the page.
  await page.route("**/api/checkout", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({ code: "unknown_item", message: "No such app here", error: "No such app here" }),
    }),
  );
  const card = page.getByRole("article", { name: app.name, exact: true });
  await card.getByRole("button", { name: "Start 3-Day Trial" }).click();
  await expect(page.getByText("Invalid app data", { exact: true })).toBeVisible();
  await expect(page.getByText("No such app here")).toHaveCount(0);
  await expect(page.getByText("Checkout Error", { exact: true })).toHaveCount(0);
  // Every popup opened for the refused checkout was closed again.
  await expect.poll(() => context.pages().length).toBe(1);
  await context.close();
});

test("the server owns the price: amounts in the request are refused, clean requests charge the catalogue price", async ({
  browser,
  playwright,
}) => {
  const context = await customer(browser);
  const tampered = await startCheckout(context, { kind: "app", appId: app.id, tab: "base", amount: 1 });
  expect(tampered.status()).toBe(400);
  expect(await tampered.json()).toEqual({
    code: "invalid_input",
    message: "Unexpected field: amount",
    error: "Unexpected field: amount",
  });

  const unknown = await startCheckout(context, { kind: "app", appId: 999_999, tab: "base" });
  expect(unknown.status()).toBe(400);
  expect(await unknown.json()).toEqual({ code: "unknown_item", message: "Invalid app data", error: "Invalid app data" });

  const clean = await startCheckout(context, { kind: "app", appId: app.id, tab: "base" });
  expect(clean.status()).toBe(200);
  const { url } = (await clean.json()) as { url: string };
  const page = await context.newPage();
  await gotoHydrated(page, url);
  await expect(page.getByTestId("checkout-amount")).toHaveText(quoteApp(app, "base").display);
  await context.close();

  // Signed out: 401.
  const anonymous = await playwright.request.newContext({ baseURL: siteOrigin() });
  const res = await anonymous.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "app", appId: app.id, tab: "base" },
  });
  expect(res.status()).toBe(401);
  expect(await res.json()).toEqual({
    code: "not_signed_in",
    message: "Authentication required",
    error: "Authentication required",
  });
  await anonymous.dispose();
});

test("paying for add-ons owned since the checkout opened is refused on the test checkout page; nothing is charged", async ({
  browser,
}) => {
  const context = await customer(browser);
  const page = await context.newPage();
  const open = async (addonIds: string[]) => {
    const res = await startCheckout(context, { kind: "addons", addonIds });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { url: string }).url;
  };
  // Two checkouts opened side by side, the second a bundle holding the first's add-on.
  const single = await open(["seo-optimizer"]);
  const bundle = await open(["seo-optimizer", "custom-domain-ssl"]);
  expect(bundle).not.toBe(single);
  const pay = async (url: string) => {
    await gotoHydrated(page, url);
    await payWith(page, "4242 4242 4242 4242");
  };
  await pay(single);
  // Paid: the return lands on the add-ons page with `?success=true`, which the page drops once it
  // has synced (so the URL is not checked for it); a refused payment stays on the checkout page.
  await expect(page).toHaveURL(/\/dashboard\/addons/);
  await pay(bundle);
  await expect(page.getByRole("alert").first()).toContainText("You already own one of these add-ons. Nothing was charged.");
  await expect(page).toHaveURL(new RegExp(bundle.replace(/[/.]/g, "\\$&") + "$"));
  await context.close();
});
