import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { siteOrigin } from "./support/auth";
import { payWith, signedInContext } from "./support/customer";
import { operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";

/**
 * The admin Refund form and the billing page's trial cancel are plain forms before (or without) the
 * page's JavaScript: each posts to its page, and the page the server answers says what happened.
 */
const app = allApps().find((a) => a.id === 7)!;

/** The same signed-in browser with JavaScript switched off. */
async function withoutJavaScript(browser: Browser, signedIn: BrowserContext) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies(await signedIn.cookies());
  return context;
}

/** A checkout the customer pays on the local test page. */
async function pay(context: BrowserContext, purchase: Record<string, unknown>) {
  const checkout = await context.request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data: purchase });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const page = await context.newPage();
  await gotoHydrated(page, ((await checkout.json()) as { url: string }).url);
  await payWith(page, "4242 4242 4242 4242");
  await expect(page).not.toHaveURL(/\/checkout\/local\//);
  await page.close();
}

test("without JavaScript an operator refunds part of an order, is told what is missing, then refunds the rest", async ({
  browser,
}) => {
  const { context: buyer, email } = await signedInContext(browser, "nojsrefund");
  await pay(buyer, { kind: "plan", planType: "basic" });
  const ops = await operatorContext(browser);
  const context = await withoutJavaScript(browser, ops);
  const page = await context.newPage();

  // The console's Orders table, searched by the buyer's email, and the order's own page: plain links.
  await page.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  const listed = page.locator("tr[data-row-id]", { hasText: email });
  await expect(listed).toHaveCount(1);
  await listed.getByRole("link", { name: new RegExp(`^Order .* of ${email.replace(/[.+]/g, "\\$&")}$`) }).click();
  await expect(page).toHaveURL(/\/admin\/orders\/[\w-]+$/);
  const orders = page.locator("#refund");
  const field = (label: string) => page.locator("#order dl > div", { has: page.getByText(label, { exact: true }) }).locator("dd");
  await orders.getByRole("link", { name: /^Refund / }).click();
  await expect(page).toHaveURL(/\?refund=/);

  const form = orders.getByRole("form", { name: /^Refund .*: \$[\d,.]+ left to refund$/ });
  await form.getByLabel("Amount (USD)").fill("10");
  await form.getByLabel("Reason").selectOption("other");
  await form.getByLabel(/^Return this money to /).check();
  await form.getByRole("button", { name: "Refund" }).click();
  // Re-rendered by the server with the refusal, nothing refunded.
  await expect(orders.getByRole("alert")).toHaveText("Say in the note why this refund is made.");
  await expect(field("Refunded")).toHaveText("$0.00");

  await form.getByLabel("Amount (USD)").fill("10");
  await form.getByLabel("Reason").selectOption("requested_by_customer");
  await form.getByLabel(/^Return this money to /).check();
  await form.getByRole("button", { name: "Refund" }).click();
  await expect(orders.getByRole("status")).toHaveText("$10.00 refunded.");
  await expect(field("Refunded")).toHaveText("$10.00");
  await expect(field("Status")).toHaveText("paid");

  // The rest, prefilled: the order ends and offers no more refunds.
  await form.getByLabel("Reason").selectOption("duplicate");
  await form.getByLabel(/^Return this money to /).check();
  await form.getByRole("button", { name: "Refund" }).click();
  await expect(orders.getByRole("status")).toHaveText(/refunded\. The order is wholly refunded and what it granted has ended\.$/);
  await expect(field("Status")).toHaveText("refunded");
  await expect(orders.getByRole("link", { name: /^Refund / })).toHaveCount(0);

  // Loaded again, the same page still says so: the server holds it.
  await page.goto(page.url().replace(/\?.*$/, ""));
  await expect(field("Status")).toHaveText("refunded");
  await context.close();
  await ops.close();
  await buyer.close();
});

test("without JavaScript a customer cancels a one-time build's free trial from the billing page", async ({ browser }) => {
  const { context: buyer } = await signedInContext(browser, "nojstrial", { trial: true });
  await pay(buyer, { kind: "app", appId: app.id, tab: "standard" });
  const context = await withoutJavaScript(browser, buyer);
  const page = await context.newPage();

  await page.goto("/dashboard/billing");
  const trial = page.getByTestId("running-trial");
  await expect(trial).toHaveCount(1);
  await expect(trial).toContainText(app.name);
  await trial.getByText("Cancel trial", { exact: true }).click();
  await trial.getByRole("button", { name: "Yes, cancel trial" }).click();

  await expect(page.getByTestId("trial-cancel-result")).toHaveText(
    `Your ${app.name} trial is canceled. Nothing was charged, and the hold on your card is released.`,
  );
  await expect(page.getByTestId("running-trial")).toHaveCount(0);
  await expect(page.getByTestId("billing-history").locator("tbody tr").first()).toContainText("Trial canceled, not charged");

  // Loaded again: still canceled.
  await page.goto("/dashboard/billing");
  await expect(page.getByTestId("running-trial")).toHaveCount(0);
  await expect(page.getByTestId("billing-history").locator("tbody tr").first()).toContainText("Trial canceled, not charged");
  await context.close();
  await buyer.close();
});
