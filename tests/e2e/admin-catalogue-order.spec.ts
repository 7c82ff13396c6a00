import { expect, test, type APIRequestContext } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { ADDON_CATEGORIES } from "../../app/catalogue/plans";
import { expectNoAxeViolations } from "./support/axe";
import { signedInContext } from "./support/customer";
import { OPERATOR, operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";

/**
 * The catalogue's order and new add-ons from the console
 * (docs/decisions/0080-catalogue-order-and-add-on-creation.md). An operator moves the twelfth app of
 * /apps up one place and anonymous visitors, whose /apps came from the page cache, see the new order
 * at once; then it goes back, so other specs find the seed's order. An operator creates an add-on
 * and a customer sees it in the dashboard's marketplace; it is taken off sale at the end, so other
 * specs count the seeded add-ons only.
 */
const catalogue = allApps();
const [eleventh, twelfth] = [catalogue[10]!, catalogue[11]!];

/** Asks for `url` as an anonymous visitor until the page cache answers it (a URL is stored on its second render). */
async function cached(request: APIRequestContext, url: string) {
  await expect
    .poll(async () => (await request.get(url)).headers()["x-page-cache"] ?? "render", { message: `${url} from the cache` })
    .toBe("hit");
}

test("an operator moves an app up one place: /apps shows the new order at once", async ({ browser }) => {
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await cached(visitorContext.request, "/apps");
  await gotoHydrated(visitor, "/apps");
  const cards = visitor.getByTestId("app-card");
  await expect(cards).toHaveCount(12);
  await expect(cards.nth(10)).toHaveAccessibleName(eleventh.name);
  await expect(cards.nth(11)).toHaveAccessibleName(twelfth.name);

  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, `/admin/apps/${twelfth.id}`);
  const order = ops.getByRole("region", { name: "Order on /apps" });
  await expect(order.getByTestId("order-position")).toHaveText("12 of 181");

  // A position out of range is answered beside the field and moves nothing.
  const field = order.getByLabel("Move to position");
  await field.fill("0");
  await order.getByRole("button", { name: "Move", exact: true }).click();
  await expect(order.getByRole("alert")).toHaveText("Not moved: check the position.");
  await expect(order.getByText("The position is from 1 to 181.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(order.getByTestId("order-position")).toHaveText("12 of 181");
  await expectNoAxeViolations(ops);

  // Move up, from the keyboard.
  await order.getByRole("button", { name: "Move up" }).focus();
  await ops.keyboard.press("Enter");
  await expect(order.getByRole("status")).toHaveText("Moved from position 12 to 11 of 181.");
  await expect(order.getByTestId("order-position")).toHaveText("11 of 181");
  await expect(field).toHaveValue("11");

  // Visitors see it at once, although /apps was in the cache.
  await gotoHydrated(visitor, "/apps");
  await expect(cards.nth(10)).toHaveAccessibleName(twelfth.name);
  await expect(cards.nth(11)).toHaveAccessibleName(eleventh.name);

  // The audit log has the move.
  await gotoHydrated(ops, "/admin/audit?action=app.move");
  const entry = ops.locator("tr[data-row-id]", { hasText: `app ${twelfth.id}` }).first();
  await expect(entry).toContainText(OPERATOR);
  await entry.getByText("Before / after").click();
  await expect(entry.locator("pre").first()).toContainText(`"position": 12`);
  await expect(entry.locator("pre").last()).toContainText(`"position": 11`);

  // And back, with the position field.
  await gotoHydrated(ops, `/admin/apps/${twelfth.id}`);
  await order.getByLabel("Move to position").fill("12");
  await order.getByLabel("Move to position").press("Enter");
  await expect(order.getByRole("status")).toHaveText("Moved from position 11 to 12 of 181.");
  await gotoHydrated(visitor, "/apps");
  await expect(cards.nth(11)).toHaveAccessibleName(twelfth.name);

  await visitorContext.close();
  await opsContext.close();
});

test("an operator creates an add-on: customers see it in the dashboard's add-ons", async ({ browser }) => {
  const name = `Churn Radar ${Date.now().toString(36)}`;
  const id = name.toLowerCase().replaceAll(" ", "-");
  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, "/admin/addons");
  await ops.getByRole("link", { name: "New add-on" }).click();
  await expect(ops).toHaveURL("/admin/addons/new");
  await expect(ops.getByRole("heading", { level: 1 })).toHaveText("New add-on");
  const form = ops.getByRole("form", { name: "New add-on" });

  // An empty form is answered field by field.
  await form.getByRole("button", { name: "Create add-on" }).click();
  await expect(form.getByText("Enter the name.")).toBeVisible();
  await expect(form.getByText("Choose a category from the list.")).toBeVisible();
  await expect(form.getByText("Enter the monthly price.")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(ops);

  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Category").selectOption(ADDON_CATEGORIES[0]);
  await form.getByLabel("Description").fill("Warns you before a customer leaves, with the reasons.");
  await form.getByLabel("Features").fill("Weekly churn score\nAlerts by email\nReasons per customer");
  await form.getByLabel("Monthly price (USD)").fill("39.50");
  await form.getByLabel(/On sale/).check();
  await form.getByRole("button", { name: "Create add-on" }).click();
  await expect(ops).toHaveURL(`/admin/addons/${id}?created=1`);
  await expect(ops.getByRole("heading", { level: 1 })).toHaveText(`Add-on: ${name}`);
  await expect(ops.getByRole("form", { name: "Edit add-on" }).getByRole("status")).toHaveText("Add-on created.");
  const order = ops.getByRole("region", { name: "Order in the dashboard's add-ons" });
  await expect(order.getByTestId("order-position")).toHaveText(/^(\d+) of \1$/);

  // A customer finds it in the marketplace, at its price.
  const { context: customerContext } = await signedInContext(browser, "new-addon", { trial: true });
  const customer = await customerContext.newPage();
  await gotoHydrated(customer, `/dashboard/addons?q=${encodeURIComponent(name)}`);
  const card = customer.getByRole("article", { name, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("addon-price")).toHaveText("$39.50");

  // The audit log has the creation.
  await gotoHydrated(ops, "/admin/audit?action=addon.create");
  await expect(ops.locator("tr[data-row-id]", { hasText: `addon ${id}` })).toContainText(OPERATOR);

  // Off sale again, so the marketplace holds the seeded add-ons only for the other specs.
  await gotoHydrated(ops, `/admin/addons/${id}`);
  const edit = ops.getByRole("form", { name: "Edit add-on" });
  await edit.getByLabel(/On sale/).uncheck();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("status")).toHaveText("Listing saved.");
  await gotoHydrated(customer, `/dashboard/addons?q=${encodeURIComponent(name)}`);
  await expect(card).toHaveCount(0);

  await customerContext.close();
  await opsContext.close();
});
