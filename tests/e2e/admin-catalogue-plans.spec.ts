import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { BILLING_PLANS, DISTRIBUTOR_PROGRAM, QUICK_PICK_PLANS } from "../../app/catalogue/plans";
import { formatDollars } from "../../app/catalogue/pricing";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { OPERATOR, operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";
import { screenshot, screenshotAt } from "./support/screenshots";

/**
 * Plan prices edited from the console (docs/decisions/0085-plan-prices-in-database.md, and
 * 0089-quick-pick-package-prices-in-database.md): an operator changes the Pro billing plan's price, the
 * distributor program's monthly fee and the Professional package's prices; a customer sees the new
 * prices on /dashboard/billing, /distributors and /packages (an anonymous visitor too, although the
 * pages were being served from the page cache), the local checkout charges them, and an order placed
 * before keeps its amount. It changes what every visitor sees, so it runs with the catalogue writers,
 * after every other spec.
 */
const pro = BILLING_PLANS.find((p) => p.type === "pro")!;
const NEW_PRO = 59_950;
const NEW_MONTHLY_FEE = 24_900;
const professional = QUICK_PICK_PLANS.find((p) => p.id === "professional")!;
const NEW_PROFESSIONAL = { price: 560_000, originalPrice: 800_000, monthlyPrice: 320_000 };

/** Asks for `url` as an anonymous visitor until the page cache answers it (a URL is stored on its second render). */
async function cached(request: APIRequestContext, url: string) {
  await expect
    .poll(async () => (await request.get(url)).headers()["x-page-cache"] ?? "render", { message: `${url} from the cache` })
    .toBe("hit");
}

/** Starts a checkout of `data` as the context's customer and opens the local checkout page it answers. */
async function openCheckout(context: BrowserContext, data: Record<string, unknown>) {
  const res = await context.request.post("/api/checkout", { headers: { Origin: siteOrigin() }, data });
  expect(res.status(), await res.text()).toBe(200);
  const page = await context.newPage();
  await gotoHydrated(page, ((await res.json()) as { url: string }).url);
  return page;
}

test("an operator changes the Pro plan's price, the distributor's monthly fee and a package's prices: pages and checkout use them, an earlier order keeps its amount", async ({
  browser,
}) => {
  expect(pro.monthlyPrice).not.toBe(NEW_PRO);
  const oldDistributor = `${formatDollars(DISTRIBUTOR_PROGRAM.setupFee)} setup + ${formatDollars(DISTRIBUTOR_PROGRAM.monthlyFee)}/month`;
  const newDistributor = `${formatDollars(DISTRIBUTOR_PROGRAM.setupFee)} setup + ${formatDollars(NEW_MONTHLY_FEE)}/month`;

  // An anonymous visitor's /distributors comes from the page cache, at the old fee.
  const visitorContext = await browser.newContext();
  await cached(visitorContext.request, "/distributors");
  const visitor = await visitorContext.newPage();
  await gotoHydrated(visitor, "/distributors");
  await expect(visitor.locator("main")).toContainText(oldDistributor);
  // And its /packages, at the Professional package's list price.
  await cached(visitorContext.request, "/packages");
  const visitorPackages = await visitorContext.newPage();
  await gotoHydrated(visitorPackages, "/packages");
  const visitorProfessional = visitorPackages.getByRole("article", { name: "Professional", exact: true });
  await expect(visitorProfessional.getByTestId("plan-price")).toHaveText(formatDollars(professional.price));

  // A customer buys the Pro plan at its old price.
  const { context: earlyContext, email: earlyEmail } = await signedInContext(browser, "plan-price-early", { trial: true });
  const earlyCheckout = await openCheckout(earlyContext, { kind: "plan", planType: "pro" });
  await expect(earlyCheckout.getByTestId("checkout-amount")).toHaveText(`${formatDollars(pro.monthlyPrice)}/month`);
  await payWith(earlyCheckout, "4242 4242 4242 4242");
  await earlyCheckout.waitForURL(/\/dashboard\/billing/);
  await expect(earlyCheckout.getByTestId("current-plan-name")).toHaveText("Pro");

  // The operator finds the Pro plan in the console and changes its price, effective now.
  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, "/admin/plans");
  await expect(ops.getByRole("heading", { level: 1 })).toHaveText("Plans");
  await expect(ops.getByTestId("plan-price-plan-pro")).toHaveText("$499.00/mo");
  await expect(ops.getByTestId("plan-price-distributor")).toHaveText("$997.00 setup + $199.00/mo");
  await expectNoAxeViolations(ops);
  await screenshot(ops, "admin-plans-1280");
  await ops.getByRole("link", { name: "Edit Pro Plan" }).click();
  await expect(ops).toHaveURL("/admin/plans/plan-pro");
  await expect(ops.getByRole("heading", { level: 1 })).toHaveText("Plan: Pro Plan");
  const form = ops.getByRole("form", { name: "Change the price" });
  await expect(form.getByLabel("Monthly price (USD)")).toHaveValue("499");

  // A bad price is answered beside its field and changes nothing.
  await form.getByLabel("Monthly price (USD)").fill("0");
  await form.getByRole("button", { name: "Save price" }).click();
  await expect(form.getByText("The monthly price is at least $0.01.")).toBeVisible();
  await expect(form.getByLabel("Monthly price (USD)")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(ops);
  await screenshotAt(ops, "admin-plan-error", [1280, 390]);

  await form.getByLabel("Monthly price (USD)").fill("599.50");
  await form.getByRole("button", { name: "Save price" }).click();
  await expect(form.getByRole("status")).toHaveText("New price in effect.");
  await expect(ops.locator("#summary")).toContainText("$599.50/mo");
  await expect(ops.locator("#prices tbody tr").first()).toContainText("current");
  await expect(ops.getByTestId("audit-entry").first()).toContainText(`plan.price by ${OPERATOR}`);

  // And the distributor program's monthly fee, keeping its setup fee.
  await gotoHydrated(ops, "/admin/plans/distributor");
  const fees = ops.getByRole("form", { name: "Change the price" });
  await expect(fees.getByLabel("Setup fee (USD)")).toHaveValue("997");
  await fees.getByLabel("Monthly price (USD)").fill(String(NEW_MONTHLY_FEE / 100));
  await fees.getByRole("button", { name: "Save price" }).click();
  await expect(fees.getByRole("status")).toHaveText("New price in effect.");

  // And the Professional package's three prices; a price with cents is refused beside its field.
  await gotoHydrated(ops, "/admin/plans/package-professional");
  await expect(ops.getByRole("heading", { level: 1 })).toHaveText("Plan: Professional Package");
  const pkg = ops.getByRole("form", { name: "Change the price" });
  await expect(pkg.getByLabel("One-time price (USD)")).toHaveValue(String(professional.price / 100));
  await expect(pkg.getByLabel("Price before the saving (USD)")).toHaveValue(String(professional.originalPrice / 100));
  await expect(pkg.getByLabel("Monthly price (USD)")).toHaveValue(String(professional.monthlyPrice / 100));
  await pkg.getByLabel("One-time price (USD)").fill("5599.50");
  await pkg.getByRole("button", { name: "Save price" }).click();
  await expect(
    pkg.getByText("The one-time price is in whole dollars, like 3500: the packages page rounds to dollars."),
  ).toBeVisible();
  await expectNoAxeViolations(ops);
  await pkg.getByLabel("One-time price (USD)").fill(String(NEW_PROFESSIONAL.price / 100));
  await pkg.getByLabel("Price before the saving (USD)").fill(String(NEW_PROFESSIONAL.originalPrice / 100));
  await pkg.getByLabel("Monthly price (USD)").fill(String(NEW_PROFESSIONAL.monthlyPrice / 100));
  await pkg.getByRole("button", { name: "Save price" }).click();
  await expect(pkg.getByRole("status")).toHaveText("New price in effect.");
  await screenshot(ops, "admin-plan-package-1280");

  await gotoHydrated(ops, "/admin/plans");
  await expect(ops.getByTestId("plan-price-plan-pro")).toHaveText("$599.50/mo");
  await expect(ops.getByTestId("plan-price-distributor")).toHaveText("$997.00 setup + $249.00/mo");
  await expect(ops.getByTestId("plan-price-package-professional")).toHaveText("$5,600.00 (was $8,000.00) or $3,200.00/mo");

  // A customer sees the new prices and is charged them.
  const { context: buyerContext } = await signedInContext(browser, "plan-price-buyer", { trial: true });
  const buyer = await buyerContext.newPage();
  await gotoHydrated(buyer, "/dashboard/billing");
  await expect(buyer.getByTestId("plan-pro")).toContainText("$599.50/month");
  const checkout = await openCheckout(buyerContext, { kind: "plan", planType: "pro" });
  await expect(checkout.getByTestId("checkout-item")).toHaveText("Pro Plan");
  await expect(checkout.getByTestId("checkout-amount")).toHaveText("$599.50/month");
  await gotoHydrated(buyer, "/distributors");
  await expect(buyer.locator("main")).toContainText(newDistributor);
  await expect(buyer.getByTestId("distributor-summary")).toHaveText(
    `${newDistributor}, ${DISTRIBUTOR_PROGRAM.trialDays}-day free trial`,
  );
  const joining = await openCheckout(buyerContext, {
    kind: "distributor",
    email: "plan-price-distributor@example.com",
    fullName: "Dana Price",
    businessName: "Price Automation Co",
  });
  await expect(joining.getByTestId("checkout-amount")).toHaveText(`${formatDollars(NEW_MONTHLY_FEE)}/month`);
  await expect(joining.getByTestId("checkout-setup-fee")).toHaveText(`${formatDollars(DISTRIBUTOR_PROGRAM.setupFee)} (one-time)`);
  await gotoHydrated(buyer, "/packages");
  const buyerProfessional = buyer.getByRole("article", { name: "Professional", exact: true });
  await expect(buyerProfessional.getByTestId("plan-price")).toHaveText(formatDollars(NEW_PROFESSIONAL.price));
  const build = await openCheckout(buyerContext, { kind: "package", planId: "professional", mode: "one-time", rush: false });
  await expect(build.getByTestId("checkout-item")).toHaveText("Professional");
  await expect(build.getByTestId("checkout-amount")).toHaveText(formatDollars(NEW_PROFESSIONAL.price));

  // The anonymous visitor sees the new fee at once, although the page was in the cache.
  await gotoHydrated(visitor, "/distributors");
  await expect(visitor.locator("main")).toContainText(newDistributor);
  await expect(visitor.locator("main")).not.toContainText(oldDistributor);
  await gotoHydrated(visitorPackages, "/packages");
  await expect(visitorProfessional.getByTestId("plan-price")).toHaveText(formatDollars(NEW_PROFESSIONAL.price));
  await expect(visitorProfessional).toContainText(`Was ${formatDollars(NEW_PROFESSIONAL.originalPrice)}`);

  // The earlier customer keeps the price they bought at: their plan and their order.
  const early = await earlyContext.newPage();
  await gotoHydrated(early, "/dashboard/billing");
  await expect(early.getByTestId("current-plan-price")).toHaveText(`${formatDollars(pro.monthlyPrice)}/month`);
  const csv = await opsContext.request.get(`/admin/export/orders?q=${encodeURIComponent(earlyEmail)}`);
  expect(csv.status()).toBe(200);
  const [header, ...rows] = (await csv.text())
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(","));
  expect(rows).toHaveLength(1);
  expect(rows[0]![header!.indexOf("item")]).toBe("Pro Plan");
  expect(Number(rows[0]![header!.indexOf("amount_cents")])).toBe(pro.monthlyPrice);

  // The audit log has the three changes, before and after.
  await gotoHydrated(ops, "/admin/audit?action=plan.price");
  const entries = ops.locator("tr[data-row-id]");
  await expect(entries).toHaveCount(3);
  const proEntry = entries.filter({ hasText: "plan plan-pro" });
  await proEntry.getByText("Before / after").click();
  await expect(proEntry.locator("pre").first()).toContainText(`"amount": ${pro.monthlyPrice}`);
  await expect(proEntry.locator("pre").last()).toContainText(`"amount": ${NEW_PRO}`);
  const packageEntry = entries.filter({ hasText: "plan package-professional" });
  await packageEntry.getByText("Before / after").click();
  await expect(packageEntry.locator("pre").first()).toContainText(`"monthlyAmount": ${professional.monthlyPrice}`);
  await expect(packageEntry.locator("pre").last()).toContainText(`"monthlyAmount": ${NEW_PROFESSIONAL.monthlyPrice}`);

  await visitorContext.close();
  await earlyContext.close();
  await buyerContext.close();
  await opsContext.close();
});
