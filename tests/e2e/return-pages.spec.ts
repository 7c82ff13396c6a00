import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { CUSTOMER_PASSWORD, payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

/**
 * The checkout return pages confirm only real payments (docs/decisions/0037-return-pages-confirm-real-orders.md):
 * the signed-in customer's own paid order gets the confirmation; an id that is no order of theirs is
 * 'Order not found' (404) with the dashboard and the apps; a signed-out visitor is asked to sign in
 * and comes back to the same page.
 */

async function customer(browser: Browser, prefix: string) {
  return signedInContext(browser, prefix, { trial: true });
}

/** Starts a checkout over the API, pays it on the local test page and returns that page, back on the return page. */
async function buy(context: BrowserContext, data: Record<string, unknown>, returnPath: RegExp): Promise<Page> {
  const res = await context.request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data });
  expect(res.status(), await res.text()).toBe(200);
  const { url } = (await res.json()) as { url: string };
  const page = await context.newPage();
  await gotoHydrated(page, url);
  await payWith(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(returnPath);
  await page.waitForSelector("html[data-hydrated]");
  return page;
}

async function expectNotFound(page: Page, url: string) {
  const response = await gotoHydrated(page, url);
  expect(response?.status(), url).toBe(404);
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Order not found");
  await expect(main).not.toContainText(/confirmed|Payment Successful|Welcome to the AI Distributor Program/i);
  await expect(main.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(main.getByRole("link", { name: "Browse Apps" })).toHaveAttribute("href", "/apps");
  await expect(page).toHaveTitle(/^Order Not Found \|/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
}

async function expectSignIn(page: Page, url: string) {
  const response = await gotoHydrated(page, url);
  expect(response?.status(), url).toBe(200);
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Sign in to see your order");
  await expect(main).not.toContainText(/confirmed|Payment Successful|Welcome to the AI Distributor Program/i);
  await expect(main.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", `/auth?next=${encodeURIComponent(url)}`);
}

test("/payment-success: a bogus id is not found; a real checkout (a one-time app's trial) is confirmed to its buyer only", async ({
  browser,
}) => {
  test.slow();
  const { context, email } = await customer(browser, "return-pay");
  const page = await context.newPage();
  await expectNotFound(page, "/payment-success?session_id=bogus123");
  await expectNoAxeViolations(page);
  await expectNotFound(page, "/payment-success");

  const paid = await buy(context, { kind: "app", appId: 7, tab: "base" }, /\/payment-success\?session_id=cs_local_/);
  const main = paid.locator("main");
  // A one-time app starts its 3-day trial: confirmed, and nothing charged yet.
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Your free trial has started!");
  await expect(main).toContainText(
    "Thank you for your order. Your order is confirmed, and nothing is charged until your free trial ends.",
  );
  await expect(paid.getByTestId("order-status")).toHaveText("Free trial started");
  const next = main.getByRole("navigation", { name: "Next steps" });
  await expect(next.getByRole("link")).toHaveText(["Go to Dashboard", "How It Works", "Join Live Training", "Browse Apps"]);
  const hrefs = await next.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(["/dashboard", "/how-it-works", "/live-training", "/apps"]);
  await expectNoAxeViolations(paid);
  const successPath = new URL(paid.url()).pathname + new URL(paid.url()).search;
  await expect(paid.getByTestId("order-id")).toHaveText(successPath.split("session_id=")[1]!);
  await context.close();

  // Another customer: not found, nothing about the order.
  const other = await customer(browser, "return-pay-other");
  await expectNotFound(await other.context.newPage(), successPath);
  await other.context.close();

  // Signed out: sign in, and the sign-in comes back to the confirmation.
  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await expectSignIn(anon, successPath);
  await expectNoAxeViolations(anon);
  await expectSignIn(anon, "/payment-success?session_id=bogus123");
  await gotoHydrated(anon, successPath);
  await anon.locator("main").getByRole("link", { name: "Sign In" }).click();
  await expect(anon).toHaveURL(/\/auth\?next=/);
  await anon.waitForSelector("html[data-hydrated]");
  const panel = anon.getByRole("tabpanel", { name: "Sign In" });
  await panel.getByLabel("Email").fill(email);
  await panel.getByLabel("Password", { exact: true }).fill(CUSTOMER_PASSWORD);
  await panel.getByRole("button", { name: "Sign In" }).click();
  await expect(anon).toHaveURL(new RegExp(`${successPath.replace(/[?]/g, "\\?")}$`));
  await expect(anon.locator("main").getByRole("heading", { level: 1 })).toHaveText("Your free trial has started!");
  await visitor.close();
});

test("/distributor-success: a bogus id is not found; a real paid checkout welcomes its buyer only", async ({ browser }) => {
  test.slow();
  const { context, email } = await customer(browser, "return-dist");
  const page = await context.newPage();
  await expectNotFound(page, "/distributor-success?session_id=bogus123");
  await expectNoAxeViolations(page);
  await expectNotFound(page, "/distributor-success");

  const paid = await buy(
    context,
    { kind: "distributor", email, fullName: "Dana Reyes", businessName: "Reyes Return Co" },
    /\/distributor-success\?session_id=cs_local_/,
  );
  const main = paid.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Welcome to the AI Distributor Program!");
  await expect(main.getByRole("heading", { level: 2 })).toHaveText([
    "1. Payment Confirmed",
    "2. Training Access",
    "3. Territory Assignment",
    "4. Start Earning",
  ]);
  await expect(paid.getByTestId("distributor-business")).toHaveText("Reyes Return Co");
  const successPath = new URL(paid.url()).pathname + new URL(paid.url()).search;
  await context.close();

  const other = await customer(browser, "return-dist-other");
  await expectNotFound(await other.context.newPage(), successPath);
  await other.context.close();

  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await expectSignIn(anon, successPath);
  await expectNoAxeViolations(anon);
  await expect(anon.locator("main")).not.toContainText("Reyes");
  await visitor.close();
});
