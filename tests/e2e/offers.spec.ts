import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

/**
 * What the customer is offered can be bought, and is recorded as sold
 * (docs/decisions/0044-member-plans-rush-and-setup-lines.md): the trial chooser's Growth and Pro are
 * bought on the page its buttons open, and the distributor's $997 setup fee is in billing history.
 */

const chooser = (page: Page) => page.getByRole("dialog", { name: "Choose Your Plan" });

/** Billing history as the customer reads it: the table on a desktop-wide window. */
const historyRow = (page: Page, item: string) => page.getByTestId("billing-history").getByRole("row").filter({ hasText: item });

async function buyFromChooser(browser: Browser, tier: { name: string; price: string }) {
  const { context } = await signedInContext(browser, "offer");
  const page = await context.newPage();
  await page.clock.install();
  await gotoHydrated(page, "/dashboard");
  // The free preview counts from the server's answer to the page's visit report: moving the clock
  // before that answer has come moves it past nothing.
  await expect(page.getByTestId("free-preview")).toHaveAttribute("data-counting", "true");
  await page.clock.runFor(16_000);
  const dialog = chooser(page);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("link", { name: `Upgrade to ${tier.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/packages\\?tier=${tier.name.toLowerCase()}$`));
  await page.waitForSelector("html[data-hydrated]");

  // The page sells the plan it was opened for, its price beside its name.
  const offer = page.getByTestId("member-offer");
  await expect(offer.getByRole("heading", { level: 2 })).toHaveText(`${tier.name} Member Plan (${tier.price}/month)`);
  await expectNoAxeViolations(page);
  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    offer.getByRole("button", { name: `Buy ${tier.name} (${tier.price}/month)` }).click(),
  ]);
  await checkout.waitForLoadState();
  await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_/);
  await checkout.waitForSelector("html[data-hydrated]");
  await expect(checkout.getByTestId("checkout-item")).toHaveText(`${tier.name} Member Plan`);
  await expect(checkout.getByTestId("checkout-amount")).toContainText(tier.price);
  await payWith(checkout, "4242 4242 4242 4242");
  // The return lands on billing with `?success=true`, which the page drops once it has synced (so
  // the URL is not checked for it); what was paid is checked on the billing page below.
  await expect(checkout).toHaveURL(/\/dashboard\/billing/);

  // The plan is the account's: the billing page names it with its price, the dashboard is open,
  // and the packages page no longer offers it.
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByText(`${tier.name} Member Plan`, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(`${tier.price}/month`).first()).toBeVisible();
  await expect(historyRow(page, `${tier.name} Member Plan`)).toContainText("Paid");
  await gotoHydrated(page, "/dashboard");
  await page.clock.runFor(16_000);
  await expect(chooser(page)).toHaveCount(0);
  await gotoHydrated(page, `/packages?tier=${tier.name.toLowerCase()}`);
  await expect(page.getByTestId("member-owned")).toHaveText("Your current plan");
  await context.close();
}

test.describe("offers that can be bought", () => {
  test("Growth, bought from the trial chooser, is the account's plan at $3,500/month", async ({ browser }) => {
    test.slow();
    await buyFromChooser(browser, { name: "Growth", price: "$3,500" });
  });

  test("Pro, bought from the trial chooser, is the $7,000/month member plan", async ({ browser }) => {
    test.slow();
    await buyFromChooser(browser, { name: "Pro", price: "$7,000" });
  });

  test("the distributor pays the $997 setup fee and billing history shows it beside the $199/month", async ({ browser }) => {
    test.slow();
    const { context } = await signedInContext(browser, "offerdist", {
      fields: { name: "Dana Reyes", firstName: "Dana", lastName: "Reyes", companyName: "Reyes Automation Co" },
    });
    const page = await context.newPage();
    await gotoHydrated(page, "/distributors");
    const [checkout] = await Promise.all([
      context.waitForEvent("page"),
      page.locator("#join").getByRole("button", { name: "Continue to Payment" }).click(),
    ]);
    await checkout.waitForLoadState();
    await checkout.waitForSelector("html[data-hydrated]");
    await payWith(checkout, "4242 4242 4242 4242");
    await expect(checkout).toHaveURL(/\/distributor-success\?session_id=cs_local_/);

    await gotoHydrated(page, "/dashboard/billing");
    const row = historyRow(page, "AI Distributor Program");
    await expect(row).toContainText("Paid");
    await expect(row.getByTestId("history-amount")).toHaveText("$997 setup$199/month after the 7-day trial");
    await expectNoAxeViolations(page);
    await context.close();
  });
});
