import { expect, test, type Browser, type Page } from "@playwright/test";
import { QUICK_PICK_PLANS } from "../../app/catalogue/plans";
import { formatDollars, quotePackage } from "../../app/catalogue/pricing";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";
import { screenshotAt } from "./support/screenshots";

/**
 * Checkout from /packages and the distributor program (docs/decisions/0009): the price on
 * the card is the price charged, the browser sends ids only, and the success pages show the buyer's
 * own order and nobody else's.
 */

const FUNNEL = "/packages?industry=Insurance&goal=add_ai&timeline=standard";
const professional = QUICK_PICK_PLANS.find((p) => p.id === "professional")!;
const starter = QUICK_PICK_PLANS.find((p) => p.id === "starter")!;
const funnel = { goal: "add_ai", timeline: "standard" };

/** A verified account (from a loopback address of its own: sign-up is rate limited per IP) in a context of its own. */
function customer(browser: Browser, fields: Record<string, unknown> = {}) {
  return signedInContext(browser, "pkg", { fields });
}

const shot = (page: Page, name: string) => screenshotAt(page, name, [1280, 390]);

const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });

test.describe("/packages checkout", () => {
  test("a signed-in customer starts Professional one-time with rush from the funnel: the shown price is held for the trial", async ({
    browser,
  }) => {
    test.slow();
    const { context } = await customer(browser);
    const page = await context.newPage();
    const rush = formatDollars(quotePackage(professional, { mode: "one-time", rush: true, ...funnel }).amount);

    // The page sends ids only: no amount, no multiplier. The request is held until the progress
    // state has been checked.
    const bodies: unknown[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/checkout", async (route) => {
      bodies.push(route.request().postDataJSON());
      await held;
      await route.continue();
    });

    await gotoHydrated(page, FUNNEL);
    await expect(page.getByTestId("multiplier-badge")).toHaveText("20% DISCOUNT Applied!");
    const pro = card(page, "Professional");
    await expect(pro.getByTestId("rush-price")).toHaveText(rush);
    await shot(page, "packages-signed-in");

    const [checkout] = await Promise.all([
      context.waitForEvent("page"),
      pro.getByRole("button", { name: /^Rush \(24-48hrs\) \+50%/ }).click(),
    ]);
    await expect(pro.getByRole("button", { name: "Processing..." })).toBeVisible();
    await expect(card(page, "Starter").getByRole("button", { name: /^Start 3-Day Free Trial/ })).toBeDisabled();
    release();
    await checkout.waitForLoadState();
    await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_[A-Za-z0-9_-]+$/);
    await checkout.waitForSelector("html[data-hydrated]");
    expect(bodies).toEqual([
      {
        kind: "package",
        planId: "professional",
        mode: "one-time",
        rush: true,
        goal: "add_ai",
        timeline: "standard",
        industry: "Insurance",
      },
    ]);
    await expect(pro.getByRole("button", { name: /^Rush \(24-48hrs\) \+50%/ })).toBeEnabled();

    await expect(checkout.getByTestId("checkout-item")).toHaveText("Professional");
    await expect(checkout.getByTestId("checkout-tab")).toHaveText("One-time, Rush (24-48 hours)");
    await expect(checkout.getByTestId("checkout-amount")).toHaveText(rush);
    // The 3-day trial of a one-time package: nothing today, the shown price when it ends.
    await expect(checkout.getByTestId("checkout-due-today")).toHaveText("$0");
    await expect(checkout.getByTestId("checkout-charge-amount")).toHaveText(rush);
    await payWith(checkout, "4242 4242 4242 4242");

    await expect(checkout).toHaveURL(/\/payment-success\?session_id=cs_local_/);
    await expect(checkout.getByRole("heading", { name: "Your free trial has started!" })).toBeVisible();
    const summary = checkout.getByTestId("order-summary");
    await expect(summary).toContainText("Professional");
    await expect(checkout.getByTestId("order-option")).toHaveText("One-time payment");
    await expect(checkout.getByTestId("order-delivery")).toHaveText("Rush");
    await expect(checkout.getByTestId("order-timeline")).toHaveText("24-48 hours");
    await expect(checkout.getByTestId("order-amount")).toHaveText(rush);
    await expect(checkout.getByTestId("order-status")).toHaveText("Free trial started");
    await expectNoAxeViolations(checkout);
    await shot(checkout, "payment-success-package");

    // Billing lists the trial with the price it charges when it ends; nothing is owned before that.
    await gotoHydrated(page, "/dashboard/automation");
    await expect(page.getByTestId("purchased-app")).toHaveCount(0);
    await gotoHydrated(page, "/dashboard/billing");
    const trial = page.getByTestId("running-trial");
    await expect(trial).toContainText("Professional");
    await expect(trial.getByTestId("trial-charge-amount")).toHaveText(rush);
    await context.close();
  });

  test("monthly mode checks out the displayed monthly price", async ({ browser }) => {
    const { context } = await customer(browser);
    const page = await context.newPage();
    const monthly = `${formatDollars(quotePackage(starter, { mode: "monthly", rush: false, ...funnel }).amount)}/month`;
    await gotoHydrated(page, `${FUNNEL}&mode=monthly`);
    const start = card(page, "Starter");
    await expect(start.getByTestId("plan-price")).toHaveText(monthly);
    const [checkout] = await Promise.all([
      context.waitForEvent("page"),
      start.getByRole("button", { name: /^Start 3-Day Free Trial/ }).click(),
    ]);
    await checkout.waitForLoadState();
    await checkout.waitForSelector("html[data-hydrated]");
    await expect(checkout.getByTestId("checkout-tab")).toHaveText("Monthly, 5-7 days");
    await expect(checkout.getByTestId("checkout-amount")).toContainText(monthly.replace("/month", ""));
    await payWith(checkout, "4242 4242 4242 4242");
    await expect(checkout).toHaveURL(/\/payment-success\?session_id=cs_local_/);
    await expect(checkout.getByTestId("order-option")).toHaveText("Monthly payment");
    await expect(checkout.getByTestId("order-delivery")).toHaveText("Standard");
    await expect(checkout.getByTestId("order-timeline")).toHaveText("5-7 days");
    await expect(checkout.getByTestId("order-amount")).toHaveText(monthly);
    await context.close();
  });

  test("a tampered request (an amount added) is refused with 400, no checkout opens and the card says so", async ({
    browser,
  }) => {
    const { context } = await customer(browser);
    const page = await context.newPage();
    const sent: Record<string, unknown>[] = [];
    await page.route("**/api/checkout", async (route) => {
      const body = route.request().postDataJSON() as Record<string, unknown>;
      sent.push(body);
      await route.continue({ postData: JSON.stringify({ ...body, amount: 1 }) });
    });
    const opened: Page[] = [];
    context.on("page", (p) => opened.push(p));

    await gotoHydrated(page, FUNNEL);
    const start = card(page, "Starter");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST"),
      start.getByRole("button", { name: /^Start 3-Day Free Trial/ }).click(),
    ]);
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({
      code: "invalid_input",
      message: "Unexpected field: amount",
      error: "Unexpected field: amount",
    });
    expect(sent).toEqual([
      {
        kind: "package",
        planId: "starter",
        mode: "one-time",
        rush: false,
        goal: "add_ai",
        timeline: "standard",
        industry: "Insurance",
      },
    ]);
    await expect(start.getByTestId("checkout-error")).toHaveText("We couldn't start your checkout. Please try again.");
    await expect(start.getByRole("button", { name: /^Start 3-Day Free Trial/ })).toBeEnabled();
    // The placeholder tab is closed again; nothing reached a checkout page.
    await expect.poll(() => opened.filter((p) => !p.isClosed()).length).toBe(0);
    expect(opened.every((p) => !p.url().includes("/checkout/local/"))).toBe(true);
    await shot(page, "packages-error");
    await context.close();
  });

  test("signed out, both buttons go to /auth and come back to this packages URL", async ({ page }) => {
    await gotoHydrated(page, FUNNEL);
    const next = `/auth?next=${encodeURIComponent(FUNNEL)}`;
    const pro = card(page, "Professional");
    await expect(pro.getByRole("link", { name: /^Rush \(24-48hrs\) \+50%/ })).toHaveAttribute("href", next);
    await pro.getByRole("link", { name: /^Start 3-Day Free Trial/ }).click();
    await expect(page).toHaveURL(`${siteOrigin()}${next}`);
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("without JavaScript the buttons are a form: the server prices the plan and redirects to the checkout page", async ({
    browser,
  }) => {
    const { context: withJs } = await customer(browser, { name: "Noel Script", companyName: "No Script Ltd" });
    const cookies = await withJs.cookies();
    await withJs.close();
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(cookies);
    const page = await context.newPage();
    const rush = formatDollars(quotePackage(starter, { mode: "one-time", rush: true, ...funnel }).amount);
    await page.goto(FUNNEL);
    await card(page, "Starter")
      .getByRole("button", { name: /^Rush \(24-48hrs\) \+50%/ })
      .click();
    await expect(page).toHaveURL(/\/checkout\/local\/cs_local_/);
    await expect(page.getByTestId("checkout-item")).toHaveText("Starter");
    await expect(page.getByTestId("checkout-tab")).toHaveText("One-time, Rush (24-48 hours)");
    await expect(page.getByTestId("checkout-amount")).toHaveText(rush);

    await page.goto("/distributors");
    await expect(page.getByLabel("Business name")).toHaveValue("No Script Ltd");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/checkout\/local\/cs_local_/);
    await expect(page.getByTestId("checkout-item")).toHaveText("AI Distributor Program");
    await context.close();
  });

  test("one rush price: a Rush timeline is the rush price once, the Rush button replaces a slower timeline's factor", async ({
    page,
  }) => {
    // Starter $3,500 on the Rush timeline: x1.5 once, rush delivery, no second Rush button.
    await gotoHydrated(page, "/packages?industry=Insurance&goal=new_app&timeline=rush");
    const rushTimeline = card(page, "Starter");
    await expect(rushTimeline.getByTestId("plan-price")).toHaveText("$5,250");
    await expect(rushTimeline.getByTestId("plan-delivery")).toHaveText("Rush delivery included: 24-48 hours");
    await expect(rushTimeline.getByRole("link", { name: /^Rush \(24-48hrs\)/ })).toHaveCount(0);
    // On 8 weeks (15% off) the standard price is $2,975 and Rush is $3,500 x 1.5, not x 0.85 x 1.5.
    await gotoHydrated(page, "/packages?industry=Insurance&goal=new_app&timeline=8weeks");
    const slow = card(page, "Starter");
    await expect(slow.getByTestId("plan-price")).toHaveText("$2,975");
    await expect(slow.getByTestId("plan-delivery")).toHaveText("Delivered in 5-7 days");
    await expect(slow.getByTestId("rush-price")).toHaveText("$5,250");
  });

  test("the trial overlay's upgrade link still shows the member discount", async ({ page }) => {
    await gotoHydrated(page, "/packages?tier=growth");
    await expect(page.getByText(/30% member discount/i).first()).toBeVisible();
    await expect(card(page, "Starter")).toBeVisible();
  });
});

test.describe("distributor program", () => {
  test("a signed-in user joins with prefilled, edited details, pays and sees their business on the success page", async ({
    browser,
  }) => {
    // Three accounts, two pages checked with axe, a payment: slow on a shared machine.
    test.slow();
    const { context, email } = await customer(browser, {
      name: "Dana Reyes",
      firstName: "Dana",
      lastName: "Reyes",
      companyName: "Reyes Automation Co",
    });
    const page = await context.newPage();
    await gotoHydrated(page, "/distributors");
    const form = page.locator("#join");
    await expect(form.getByLabel("Email")).toHaveValue(email);
    await expect(form.getByLabel("Full name")).toHaveValue("Dana Reyes");
    await expect(form.getByLabel("Business name")).toHaveValue("Reyes Automation Co");
    await expect(form.getByTestId("distributor-summary")).toHaveText("$997 setup + $199/month, 7-day free trial");
    await expectNoAxeViolations(page);

    // Checked here first (no tab opens) ...
    await form.getByLabel("Business name").fill("");
    await form.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(form.getByText("Enter your business name")).toBeVisible();
    await expect(form.getByLabel("Business name")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Business name")).toBeFocused();

    // ... and by the server, whose field message shows next to its field.
    await form.getByLabel("Business name").fill("Reyes Automation Group");
    await form.getByLabel("Email").fill("dana@reyes.c");
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/checkout")),
      form.getByRole("button", { name: "Continue to Payment" }).click(),
    ]);
    expect(refused.status()).toBe(400);
    await expect(form.locator("#distributor-email-error")).toHaveText("Enter a valid email address");
    await expect(form.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await shot(page, "distributors-form-error");

    await form.getByLabel("Email").fill(email);
    const [checkout] = await Promise.all([
      context.waitForEvent("page"),
      form.getByRole("button", { name: "Continue to Payment" }).click(),
    ]);
    await checkout.waitForLoadState();
    await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_/);
    await checkout.waitForSelector("html[data-hydrated]");
    await expect(checkout.getByTestId("checkout-item")).toHaveText("AI Distributor Program");
    await expect(checkout.getByTestId("checkout-due-today")).toHaveText("$997");
    await payWith(checkout, "4242 4242 4242 4242");

    await expect(checkout).toHaveURL(/\/distributor-success\?session_id=cs_local_/);
    await expect(checkout.getByRole("heading", { name: "Welcome to the AI Distributor Program!" })).toBeVisible();
    await expect(checkout.getByTestId("distributor-business")).toHaveText("Reyes Automation Group");
    await expect(checkout.getByTestId("distributor-email")).toHaveText(email);
    for (const step of ["Payment Confirmed", "Training Access", "Territory Assignment", "Start Earning"])
      await expect(checkout.getByRole("heading", { name: step })).toBeVisible();
    await expect(checkout.getByText("within 24 hours")).toBeVisible();
    await expect(checkout.getByText("within 48 hours")).toBeVisible();
    await expect(checkout.locator("#main")).not.toContainText(/demo|john doe|example business/i);
    await expect(checkout.getByRole("link", { name: "Back to Homepage" })).toHaveAttribute("href", "/");
    await expectNoAxeViolations(checkout);
    await shot(checkout, "distributor-success");
    const successUrl = checkout.url();

    // Another customer finds no such order, and a signed-out visitor is asked to sign in: nothing about this order.
    const other = await customer(browser);
    const strangerPage = await other.context.newPage();
    expect((await gotoHydrated(strangerPage, successUrl))?.status()).toBe(404);
    await expect(strangerPage.getByRole("heading", { level: 1 })).toHaveText("Order not found");
    await expect(strangerPage.getByTestId("distributor-order")).toHaveCount(0);
    await expect(strangerPage.locator("body")).not.toContainText("Reyes");
    await other.context.close();
    const anonymous = await browser.newContext();
    const anonPage = await anonymous.newPage();
    await gotoHydrated(anonPage, successUrl);
    await expect(anonPage.getByRole("heading", { level: 1 })).toHaveText("Sign in to see your order");
    await expect(anonPage.getByTestId("distributor-order")).toHaveCount(0);
    await expect(anonPage.locator("body")).not.toContainText(email);
    await anonymous.close();
    await context.close();
  });

  test("signed out the call to action signs in first; a cancelled payment shows a notice", async ({ page }) => {
    await gotoHydrated(page, "/distributors?canceled=true");
    await expect(page.getByTestId("distributor-canceled")).toContainText("you have not been charged");
    await shot(page, "distributors-canceled");
    const join = page.locator("#main").getByRole("link", { name: "Become a Distributor" });
    for (const link of await join.all()) await expect(link).toHaveAttribute("href", "/auth?next=/distributors");
    await expect(page.locator("#join form")).toHaveCount(0);
  });
});
