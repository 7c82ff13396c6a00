import { expect, test, type APIRequestContext } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { APP_PRICING_TABS, quoteApp } from "../../app/catalogue/pricing";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { OPERATOR, operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";

/**
 * The catalogue edited from the console (docs/decisions/0078-catalogue-in-database.md): an operator
 * changes an app's prices; /apps and the app's page show them at once to anonymous visitors, whose
 * pages were being served from the page cache; an order placed before keeps its price, on the
 * customer's page and in the order row (the console's CSV export of the orders table); the audit log
 * has the change. App 170 is no other spec's.
 */
const app = allApps().find((a) => a.id === 170)!;
const NEW = { basePrice: 31000, expressPrice: 46500, standardPrice: 27900, monthlyFinancing: "1550" };
const edited = { ...app, ...NEW };
const appsUrl = `/apps?q=${encodeURIComponent(app.name)}`;
const pageUrl = `/apps/${app.slug}`;

/** Asks for `url` as an anonymous visitor until the page cache answers it (a URL is stored on its second render). */
async function cached(request: APIRequestContext, url: string) {
  await expect
    .poll(async () => (await request.get(url)).headers()["x-page-cache"] ?? "render", { message: `${url} from the cache` })
    .toBe("hit");
}

/** The rows of a CSV (no quoted commas in the columns read here). */
const csvRows = (text: string) =>
  text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(","));

test("an operator edits an app's price: /apps and its page show it at once, an order placed before keeps its price", async ({
  browser,
}) => {
  expect(app.basePrice).not.toBe(NEW.basePrice);
  // Anonymous visitors: both pages are served from the cache, at the old price.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await cached(visitorContext.request, appsUrl);
  await cached(visitorContext.request, pageUrl);
  await gotoHydrated(visitor, pageUrl);
  await expect(visitor.getByTestId("app-price").first()).toHaveText(quoteApp(app, "base").display);

  // A customer orders the app at the old price (its build starts with a 3-day trial, charged at its end).
  const { context: buyerContext, email } = await signedInContext(browser, "catalogue-buyer");
  const buyer = await buyerContext.newPage();
  const checkout = await buyerContext.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "app", appId: app.id, tab: "base" },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  await gotoHydrated(buyer, ((await checkout.json()) as { url: string }).url);
  await expect(buyer.getByTestId("checkout-amount")).toHaveText(quoteApp(app, "base").display);
  await payWith(buyer, "4242 4242 4242 4242");
  await expect(buyer).toHaveURL(/\/payment-success/);

  // The operator finds the app in the console and changes its four prices, effective now.
  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, `/admin/apps?q=${encodeURIComponent(app.name)}`);
  const row = ops.locator("tr[data-row-id]", { hasText: app.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`$${app.basePrice.toLocaleString("en-US")}`);
  await row.getByRole("link", { name: `Edit ${app.name}` }).click();
  await expect(ops).toHaveURL(`/admin/apps/${app.id}`);
  await expect(ops.getByRole("heading", { level: 1 })).toHaveText(`App: ${app.name}`);
  const form = ops.getByRole("form", { name: "Edit app" });
  await expect(form.getByLabel("Base price")).toHaveValue(String(app.basePrice));

  // A bad price is answered beside its field and changes nothing.
  await form.getByLabel("Base price").fill("31000.50");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("The base price is a whole number of dollars, digits only.")).toBeVisible();
  await expect(form.getByLabel("Base price")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(ops);

  await form.getByLabel("Base price").fill(String(NEW.basePrice));
  await form.getByLabel("Express price").fill(String(NEW.expressPrice));
  await form.getByLabel("Standard price").fill(String(NEW.standardPrice));
  await form.getByLabel("Monthly financing").fill(NEW.monthlyFinancing);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status")).toHaveText("New price in effect.");
  await expect(ops.locator("#summary")).toContainText("$31,000");
  await expect(ops.locator("#prices tbody tr").first()).toContainText("current");

  // Anonymous visitors see the new prices at once, although both pages were in the cache.
  await gotoHydrated(visitor, appsUrl);
  const card = visitor.getByRole("article", { name: app.name, exact: true });
  await expect(card.getByTestId("app-price")).toHaveText(quoteApp(edited, "base").display);
  await gotoHydrated(visitor, pageUrl);
  const options = visitor.getByTestId("app-price-option");
  for (const [i, tab] of APP_PRICING_TABS.entries()) {
    await expect(options.nth(i).getByTestId("app-price")).toHaveText(quoteApp(edited, tab).display);
  }

  // The order placed before keeps its price: on the customer's billing page, and in its row.
  await gotoHydrated(buyer, "/dashboard/billing");
  await expect(buyer.getByTestId("trial-charge-amount").first()).toHaveText(quoteApp(app, "base").display);
  const csv = await opsContext.request.get(`/admin/export/orders?q=${encodeURIComponent(email)}`);
  expect(csv.status()).toBe(200);
  const [header, ...orderRows] = csvRows(await csv.text());
  expect(orderRows).toHaveLength(1);
  const column = (name: string) => orderRows[0]![header!.indexOf(name)];
  expect(column("item")).toBe(app.name);
  expect(Number(column("amount_cents"))).toBe(quoteApp(app, "base").amount);

  // A new checkout is charged the new price.
  const again = await buyerContext.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "app", appId: app.id, tab: "express" },
  });
  expect(again.status(), await again.text()).toBe(200);
  await gotoHydrated(buyer, ((await again.json()) as { url: string }).url);
  await expect(buyer.getByTestId("checkout-amount")).toHaveText(quoteApp(edited, "express").display);

  // The audit log has the change: who, what, on which app, before and after.
  await gotoHydrated(ops, "/admin/audit?action=app.price");
  const entry = ops.locator("tr[data-row-id]", { hasText: `app ${app.id}` });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("app.price");
  await expect(entry).toContainText(OPERATOR);
  await entry.getByText("Before / after").click();
  await expect(entry.locator("pre").first()).toContainText(`"basePrice": ${app.basePrice}`);
  await expect(entry.locator("pre").last()).toContainText(`"basePrice": ${NEW.basePrice}`);

  await visitorContext.close();
  await buyerContext.close();
  await opsContext.close();
});
