import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { ADDONS } from "../../app/catalogue/addons";
import { signUpVerified, siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext, startDashboardTrial } from "./support/customer";
import { gotoHydrated } from "./support/page";
import { screenshot, screenshotAt } from "./support/screenshots";

/** A verified customer with a started trial, in a browser context of its own (own sign-up IP). */
async function customer(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const { context } = await signedInContext(browser, "billing", { trial: true });
  return { context, page: await context.newPage() };
}

/** Clicks `button` (which opens the hosted checkout in a new tab), pays with the test card and returns that tab. */
async function payInNewTab(context: BrowserContext, button: Locator): Promise<Page> {
  const [checkout] = await Promise.all([context.waitForEvent("page"), button.click()]);
  await checkout.waitForURL(/\/checkout\/local\/cs_local_/);
  await checkout.waitForSelector("html[data-hydrated]");
  await payWith(checkout, "4242 4242 4242 4242");
  return checkout;
}

/**
 * At desktop (1280) and phone (390) widths: the heading shows, nothing is wider than the window, no
 * axe violation on the phone; screenshots of the first screen, the whole page and, given `focus`,
 * the screen around it.
 */
async function checkWidths(page: Page, name: string, focus?: Locator) {
  for (const [label, width, height] of [
    ["desktop", 1280, 900],
    ["mobile", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Nothing wider than the window: no horizontal scrolling of the page itself.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (label === "mobile") await expectNoAxeViolations(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `${name}-${label}`, { fullPage: false });
    await screenshot(page, `${name}-${label}-full`);
    if (focus) {
      await focus.scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-${label}-focus`, { fullPage: false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const historyRows = (page: Page) => page.getByTestId("billing-history").locator("tbody tr");

test("billing: buy the Pro plan in the test checkout tab, then switch to a scaling tier; cancel at period end; tampered requests change nothing", async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  await signUpVerified(page);
  await startDashboardTrial(context);

  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free Trial");
  await expect(page.getByTestId("plan-status")).toHaveText("Trial");
  await expect(page.getByText("Manage Billing", { exact: true })).toHaveCount(0);
  await expect(page.getByText("No payments yet.")).toBeVisible();
  await expectNoAxeViolations(page);
  await checkWidths(page, "billing-trial");

  // Pro: the button says Processing... while the checkout starts, then the hosted page pays it.
  const pro = page.getByTestId("plan-pro");
  await expect(pro.getByText("$499", { exact: true })).toBeVisible();
  await expect(pro.getByText("100,000 contacts")).toBeVisible();
  const checkout = await payInNewTab(context, pro.getByRole("button", { name: "Choose Pro" }));

  // The checkout tab comes back to the billing page: toast, sync, parameters removed.
  await checkout.waitForURL(/\/dashboard\/billing/);
  await checkout.waitForSelector("html[data-hydrated]");
  await expect(checkout.getByText("Payment successful")).toBeVisible();
  await expect(checkout).toHaveURL(/\/dashboard\/billing$/);
  await expect(checkout.getByTestId("current-plan-name")).toHaveText("Pro");
  await expect(checkout.getByTestId("plan-status")).toHaveText("Active");
  await checkout.close();

  // The first tab re-reads its data when the customer comes back to it.
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(page.getByTestId("current-plan-name")).toHaveText("Pro");
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Pro");
  await expect(page.getByTestId("plan-status")).toHaveText("Active");
  await expect(page.getByTestId("current-plan-price")).toHaveText("$499/month");
  await expect(page.getByTestId("current-plan-reach")).toHaveText("100,000 contacts");
  await expect(page.getByTestId("current-plan-renewal")).toHaveText(/\w{3} \d{1,2}, \d{4}/);
  await expect(pro.getByText("Current plan", { exact: true })).toBeVisible();
  await expect(pro.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  // A subscriber switches plans (a prorated change of this subscription) instead of buying a second one.
  await expect(page.getByTestId("plan-basic").getByRole("button", { name: "Switch to Basic" })).toBeEnabled();
  await expect(historyRows(page)).toHaveCount(1);
  await expect(historyRows(page).first()).toContainText("Pro Plan");
  await expect(historyRows(page).first()).toContainText("Paid");
  await expectNoAxeViolations(page);
  await checkWidths(page, "billing-pro", page.getByRole("heading", { name: "Billing history" }));

  // Refresh status re-syncs and says so.
  await page.getByRole("button", { name: "Refresh status" }).click();
  await expect(page.getByText("Subscription status updated")).toBeVisible();

  await gotoHydrated(page, "/dashboard");
  await expect(page.getByTestId("trial-badge")).toHaveText("Active");

  // Scaling: Pro is a billing plan, not a tier, so no tier is its current plan; but its 100,000
  // contacts are the 100K tier's, which is neither an upgrade nor a downgrade: it is included, and
  // not for sale (the checkout refuses it too). The tiers below are downgrades, the ones above
  // upgrades; either is a plan change of Pro's subscription. Switch to the 500K tier.
  await gotoHydrated(page, "/dashboard/scaling");
  await expect(page.getByTestId("scaling-current-plan")).toHaveText("Pro");
  await expect(page.getByText("Current plan", { exact: true })).toHaveCount(1); // the card's heading only
  const proLabels = ["Downgrade", "Downgrade", "Included", "Upgrade", "Upgrade"];
  for (const [i, name] of proLabels.entries()) {
    const button = page.getByTestId(`tier-${i}`).getByRole("button", { name });
    if (i === 2) await expect(button).toBeDisabled();
    else await expect(button).toBeEnabled();
  }
  await expect(page.getByTestId("tier-2").getByText("In your plan", { exact: true })).toBeVisible();
  const included = await page.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "scaling", tierIndex: 2 },
  });
  const includedText =
    "Your current plan already includes 100,000 contacts per month. Choose a tier with more or fewer contacts.";
  expect([included.status(), await included.json()]).toEqual([
    409,
    { code: "included_in_plan", message: includedText, error: includedText },
  ]);
  await expectNoAxeViolations(page);
  await checkWidths(page, "scaling-pro", page.getByTestId("tier-3"));
  await page.getByTestId("tier-3").getByRole("button", { name: "Upgrade" }).click();
  await page.waitForURL(/\/dashboard\/billing\/change\//);
  await expect(page.getByTestId("change-from")).toContainText("Pro");
  await expect(page.getByTestId("change-to")).toContainText("Scale 500K");
  await page.getByRole("button", { name: /^Confirm and pay \$/ }).click();
  await expect(page.getByTestId("change-done")).toContainText("Your plan is now Scale 500K");
  await gotoHydrated(page, "/dashboard/scaling");
  await expect(page.getByTestId("scaling-current-plan")).toHaveText("Scale 500K");
  await expect(page.getByTestId("scaling-current-reach")).toHaveText("500,000 contacts per month.");
  await expect(page.getByTestId("tier-3").getByRole("button", { name: "Current plan" })).toBeDisabled();
  await expect(page.getByTestId("tier-3").getByText("Current plan", { exact: true })).toHaveCount(2); // badge and button
  await expect(page.getByTestId("tier-2").getByRole("button", { name: "Downgrade" })).toBeEnabled();
  await expect(page.getByTestId("tier-0").getByRole("button", { name: "Downgrade" })).toBeEnabled();
  await expect(page.getByTestId("tier-4").getByRole("button", { name: "Upgrade" })).toBeEnabled();

  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Scale 500K");
  await expect(page.getByTestId("current-plan-reach")).toHaveText("500,000 contacts");
  await expect(page.getByTestId("plan-pro").getByRole("button", { name: "Switch to Pro" })).toBeEnabled();
  await expect(historyRows(page)).toHaveCount(2);
  await expect(historyRows(page).first()).toContainText("Changed plan: Pro → Scale 500K");

  // The overview shows what the customer pays for: the tier (it replaced Pro) and its monthly price.
  await gotoHydrated(page, "/dashboard");
  await expect(page.getByTestId("overview-plan")).toHaveText("Scale 500K");
  await expect(page.getByTestId("overview-tier")).toHaveText("500,000 contacts/month");
  await expect(page.getByTestId("overview-plan-value")).toHaveText("$2,499/mo");

  // A tampered request (an amount, a price) is refused and creates no order.
  for (const body of [
    { kind: "plan", planType: "basic", amount: 1 },
    { kind: "scaling", tierIndex: 4, price: 100 },
    { kind: "addons", addonIds: ["seo-optimizer"], amount: 1 },
  ]) {
    const res = await page.request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data: body });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Unexpected field: (amount|price)$/);
  }
  await gotoHydrated(page, "/dashboard/billing");
  await expect(historyRows(page)).toHaveCount(2);
  await expect(page.getByTestId("current-plan-name")).toHaveText("Scale 500K");

  // Manage Billing: the local test provider's page on this site, in this tab (no portal tab to close).
  const popups: Page[] = [];
  context.on("page", (p) => popups.push(p));
  await page.getByRole("link", { name: "Manage Billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing\/manage$/);
  expect(popups).toEqual([]);
  const tier = page.getByTestId("managed-subscriptions").getByRole("listitem").filter({ hasText: "Scale 500K" });
  await tier.getByRole("button", { name: "Cancel Scale 500K" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel Scale 500K?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotAt(page, "cancel-dialog", [390], { fullPage: false });
  await dialog.getByRole("button", { name: "Keep subscription" }).click();
  await expect(dialog).toHaveCount(0);
  await tier.getByRole("button", { name: "Cancel Scale 500K" }).click();
  await dialog.getByRole("button", { name: "Yes, cancel subscription" }).click();
  await expect(page.getByText("Subscription cancelled", { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(tier).toContainText("Cancels at period end");
  await page.getByRole("link", { name: "Back to Subscription & Billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByTestId("cancels-on")).toContainText("Cancels on");
  await expect(page.getByTestId("plan-status")).toHaveText("Active");

  // The session ends while the page is open: Refresh status is no success but a trip to sign in.
  await context.clearCookies();
  await page.getByRole("button", { name: "Refresh status" }).click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%2Fbilling$/);
  await expect(page.getByText("Subscription status updated")).toHaveCount(0);
});

test("add-ons: search and filter in the URL, a cart with the 3-add-on minimum, checkout shows them Owned", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await customer(browser);
  const active = ADDONS.filter((a) => a.isActive);
  const [first, second, third] = [
    ADDONS.find((a) => a.id === "email-campaign-builder")!,
    ADDONS.find((a) => a.id === "seo-optimizer")!,
    ADDONS.find((a) => a.id === "advanced-analytics")!,
  ];
  const card = (name: string) => page.getByRole("article", { name, exact: true });

  await gotoHydrated(page, "/dashboard/addons");
  await expect(page.getByTestId("addon-card")).toHaveCount(active.length);
  await expect(page.getByTestId("addon-results")).toContainText(`Showing ${active.length} of ${active.length} add-ons`);
  // Inactive add-ons are not sold.
  for (const a of ADDONS.filter((x) => !x.isActive)) await expect(card(a.name)).toHaveCount(0);
  // The first 3 features and '+N more features'.
  const campaign = card(first.name);
  await expect(campaign.getByRole("listitem")).toHaveCount(4);
  await expect(campaign.getByText(`+${first.features.length - 3} more features`)).toBeVisible();
  await expect(campaign.getByText(first.features[3]!)).toHaveCount(0);
  await expect(campaign.getByTestId("addon-price")).toHaveText("$49");
  await expect(page.getByTestId("cart-minimum")).toHaveText("Add 3 more add-ons to meet the minimum of 3");
  await expectNoAxeViolations(page);

  // Filters live in the URL (and the server renders them).
  await gotoHydrated(page, "/dashboard/addons?category=Finance");
  await expect(page.getByLabel("Category")).toHaveValue("Finance");
  await expect(page.getByTestId("addon-card")).toHaveCount(active.filter((a) => a.category === "Finance").length);
  await page.getByLabel("Search add-ons").fill("receipt");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=receipt/);
  await expect(page.getByTestId("addon-card")).toHaveCount(1);
  await expect(card("Expense Tracker")).toBeVisible();
  await page.getByLabel("Category").selectOption("Marketing");
  await expect(page).toHaveURL(/category=Marketing/);
  await expect(page.getByRole("heading", { name: "No add-ons match" })).toBeVisible();
  await page.getByRole("link", { name: "Show all add-ons" }).click();
  await expect(page).toHaveURL(/\/dashboard\/addons$/);
  await expect(page.getByTestId("addon-card")).toHaveCount(active.length);

  // The cart: add, no duplicates, remove, clear, total, the minimum.
  const cart = page.getByTestId("cart");
  await campaign.getByRole("button", { name: "Add to cart" }).click();
  await expect(campaign.getByRole("button", { name: "Remove from cart" })).toBeVisible();
  await expect(page.getByTestId("cart-minimum")).toHaveText("Add 2 more add-ons to meet the minimum of 3");
  await card(second.name).getByRole("button", { name: "Add to cart" }).click();
  await expect(cart.getByRole("button", { name: "Checkout 2 add-ons" })).toBeDisabled();
  await page.getByRole("button", { name: "Clear cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("0 items");
  for (const a of [first, second, third]) await card(a.name).getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("3 items");
  await expect(page.getByTestId("cart-minimum")).toHaveText("Minimum of 3 add-ons met");
  await expect(page.getByTestId("cart-total")).toHaveText("$207/month");
  await cart.getByRole("button", { name: `Remove ${second.name} from cart` }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("$148/month");
  await card(second.name).getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("$207/month");
  await expectNoAxeViolations(page);
  await checkWidths(page, "addons-cart", card(first.name));

  const checkout = await payInNewTab(context, cart.getByRole("button", { name: "Checkout 3 add-ons" }));
  await checkout.waitForURL(/\/dashboard\/addons/);
  await checkout.waitForSelector("html[data-hydrated]");
  await expect(checkout.getByText("Add-ons activated")).toBeVisible();
  for (const a of [first, second, third]) {
    await expect(
      checkout.getByRole("article", { name: a.name, exact: true }).getByRole("button", { name: "Owned" }),
    ).toBeDisabled();
  }
  await checkout.close();

  // Back in the first tab (reload): Owned, and bought add-ons have left the cart.
  await gotoHydrated(page, "/dashboard/addons");
  for (const a of [first, second, third]) await expect(card(a.name).getByRole("button", { name: "Owned" })).toBeDisabled();
  await expect(page.getByTestId("cart-count")).toHaveText("0 items");
  await expect(page.getByTestId("owned-count")).toHaveText("You own 3 add-ons.");

  // An owned add-on cannot be bought again.
  const again = await page.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "addons", addonIds: [first.id] },
  });
  expect(again.status()).toBe(409);

  // One add-on straight from its card.
  const domain = ADDONS.find((a) => a.id === "custom-domain-ssl")!;
  const direct = await payInNewTab(context, card(domain.name).getByRole("button", { name: "Subscribe" }));
  await direct.waitForURL(/\/dashboard\/addons/);
  await expect(
    direct.getByRole("article", { name: domain.name, exact: true }).getByRole("button", { name: "Owned" }),
  ).toBeDisabled();
  await direct.close();

  await gotoHydrated(page, "/dashboard/billing");
  await expect(historyRows(page)).toHaveCount(2);
  await expect(historyRows(page).nth(1)).toContainText("3 add-ons:");
  await context.close();
});

test("a checkout after the session ended goes to sign in, which says why (add-ons, scaling upgrade)", async ({ browser }) => {
  const { context, page } = await customer(browser);
  const session = await context.cookies();

  await gotoHydrated(page, "/dashboard/addons");
  await context.clearCookies();
  const domain = ADDONS.find((a) => a.id === "custom-domain-ssl")!;
  await page.getByRole("article", { name: domain.name, exact: true }).getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%2Faddons&reason=addons$/);
  await expect(page.getByRole("status").filter({ hasText: "Please sign in to add add-ons" })).toBeVisible();

  await context.addCookies(session);
  await gotoHydrated(page, "/dashboard/scaling");
  await context.clearCookies();
  await page.getByTestId("tier-1").getByRole("button", { name: "Upgrade" }).click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%2Fscaling&reason=upgrade$/);
  await expect(page.getByRole("status").filter({ hasText: "Please sign in to upgrade your plan" })).toBeVisible();
  // The tabs opened for the refused checkouts were closed again.
  await expect.poll(() => context.pages().length).toBe(1);
  await context.close();
});

test("checkout returns: canceled shows a toast; a failing checkout shows the section 8 texts", async ({ browser }) => {
  const { context, page } = await customer(browser);

  await gotoHydrated(page, "/dashboard/scaling?canceled=true");
  await expect(page.getByText("Upgrade canceled. You have not been charged.")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/scaling$/);
  await expect(page.getByTestId("scaling-current-plan")).toHaveText("Free Trial");
  await expect(page.getByTestId("tier-0").getByRole("button", { name: "Upgrade" })).toBeEnabled();
  await expectNoAxeViolations(page);
  await checkWidths(page, "scaling-trial");

  // The enterprise panel books a demo in a new tab.
  const demo = page.getByRole("link", { name: /BOOK DEMO/ });
  await expect(demo).toHaveAttribute("href", /^https?:\/\//);
  await expect(demo).toHaveAttribute("target", "_blank");

  await gotoHydrated(page, "/dashboard/billing?canceled=true");
  await expect(page.getByText("Checkout canceled. You have not been charged.")).toBeVisible();

  // Provider down (503) and any other failure.
  // The answer is held until the pending state has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/checkout", async (route) => {
    await held;
    await route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "down" }) });
  });
  await page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }).click();
  await expect(page.getByTestId("plan-basic").getByRole("button", { name: "Processing..." })).toBeDisabled();
  await expect(page.getByTestId("plan-pro").getByRole("button", { name: "Choose Pro" })).toBeDisabled();
  release();
  await expect(page.getByText("Payment system is currently unavailable. Please try again later.")).toBeVisible();
  await page.unroute("**/api/checkout");
  await page.route("**/api/checkout", (route) =>
    route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ error: "bad" }) }),
  );
  await page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }).click();
  await expect(page.getByText("Failed to start checkout process")).toBeVisible();
  await gotoHydrated(page, "/dashboard/scaling");
  await page.getByTestId("tier-1").getByRole("button", { name: "Upgrade" }).click();
  await expect(page.getByText("Failed to start upgrade process")).toBeVisible();
  // Every popup opened for these failed checkouts was closed again.
  await expect.poll(() => context.pages().length).toBe(1);
  await context.close();
});
