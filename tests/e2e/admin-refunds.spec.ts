import { expect, test } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";

/**
 * /admin/orders → an order's page → Refund, on the local provider: an operator refunds part of a paid order, then
 * the rest, through the form's review and confirm steps; the customer's billing history then says
 * the order was refunded.
 */
/** The first dollar amount of a cell ("$99.00/month" is 99). */
const dollars = (text: string) => Number(/\$([\d,]+(?:\.\d+)?)/.exec(text)?.[1]?.replace(/,/g, "") ?? NaN);

test("an operator refunds part of a paid order, then the rest, and the customer sees it refunded", async ({ browser }) => {
  const { context: buyerContext, email } = await signedInContext(browser, "refundee");
  const buyer = await buyerContext.newPage();
  const checkout = await buyerContext.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    // A plan is charged at checkout (an app's build starts with its free trial, charged at its end).
    data: { kind: "plan", planType: "basic" },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  await gotoHydrated(buyer, ((await checkout.json()) as { url: string }).url);
  await payWith(buyer, "4242 4242 4242 4242");
  await expect(buyer).toHaveURL(/\/dashboard\/billing/);

  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  // The console's Orders table, searched by the buyer's email: the order's row and its price.
  expect((await gotoHydrated(ops, `/admin/orders?q=${encodeURIComponent(email)}`))?.status()).toBe(200);
  const row = ops.locator("tr[data-row-id]", { hasText: email });
  await expect(row).toHaveCount(1);
  const price = dollars((await row.locator("td").nth(5).textContent()) ?? "");
  expect(price).toBeGreaterThan(10);
  const itemName = (await row.locator("td").nth(2).textContent()) ?? "";
  await row.getByRole("link", { name: `Order ${itemName} of ${email}` }).click();
  await expect(ops).toHaveURL(/\/admin\/orders\/[\w-]+$/);
  const orders = ops.locator("#refund");
  const field = (label: string) => ops.locator("#order dl > div", { has: ops.getByText(label, { exact: true }) }).locator("dd");

  // Part of it: more than is left is refused in the form; a reason is required.
  await orders.getByRole("button", { name: new RegExp(`^Refund .* of ${email.replace(/[.+]/g, "\\$&")}$`) }).click();
  const form = orders.getByRole("form", { name: /^Refund / });
  const amount = form.getByLabel("Amount (USD)");
  await expect(amount).toHaveValue(price.toFixed(2));
  await amount.fill(String(price + 1));
  await form.getByRole("button", { name: "Review refund" }).click();
  await expect(form.getByRole("alert")).toHaveText(/^At most \$[\d,.]+ is left to refund on this order\.$/);
  await amount.fill("10");
  await form.getByRole("button", { name: "Review refund" }).click();
  await expect(form.getByRole("alert")).toHaveText("Choose a reason.");
  await form.getByLabel("Reason").selectOption("requested_by_customer");
  await form.getByLabel(/^Note/).fill("Asked by email");
  await form.getByRole("button", { name: "Review refund" }).click();
  const confirm = orders.getByRole("group", { name: `Return $10.00 to ${email} for ${itemName}?` });
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(ops);
  await confirm.getByRole("button", { name: "Confirm refund of $10.00" }).click();
  await expect(orders.getByRole("status")).toHaveText("$10.00 refunded.");
  await expect(field("Refunded")).toHaveText("$10.00");
  await expect(field("Status")).toHaveText("paid");

  // The rest: prefilled with what is left; the order ends.
  await orders.getByRole("button", { name: /^Refund / }).click();
  await expect(amount).toHaveValue((price - 10).toFixed(2));
  await form.getByLabel("Reason").selectOption("duplicate");
  await form.getByRole("button", { name: "Review refund" }).click();
  await orders.getByRole("button", { name: /^Confirm refund of / }).click();
  await expect(orders.getByRole("status")).toHaveText(/refunded\. The order is wholly refunded and what it granted has ended\.$/);
  await expect(field("Status")).toHaveText("refunded");
  await expect(orders.getByRole("button", { name: /^Refund / })).toHaveCount(0);

  // What the customer's account holds now.
  await gotoHydrated(buyer, "/dashboard/billing");
  await expect(buyer.getByRole("table").getByText("Refunded", { exact: true })).toBeVisible();
  await opsContext.close();
  await buyerContext.close();
});
