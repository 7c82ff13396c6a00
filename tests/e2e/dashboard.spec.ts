import { expect, test, type Page } from "@playwright/test";
import { signUpVerified, siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

/** Starts the trial through the plain HTML form post (the no-JavaScript path of the chooser). */
async function startTrialByForm(page: Page) {
  const res = await page.request.post("/dashboard", {
    headers: { Origin: siteOrigin() },
    form: { intent: "start-trial", plan: "starter" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toBe("/dashboard?toast=trial-started");
}

const chooser = (page: Page) => page.getByRole("dialog", { name: "Choose Your Plan" });

/**
 * The free preview counts from the server's record of the first view, which the page's visit report
 * answers: a test that moves a paused clock waits for the count to have begun.
 */
const previewCounting = (page: Page) => expect(page.getByTestId("free-preview")).toHaveAttribute("data-counting", "true");

/** A new account on /dashboard, past the 15-second free preview: the plan chooser is open. */
async function newAccountAtChooser(page: Page) {
  await signUpVerified(page);
  await page.clock.install();
  await gotoHydrated(page, "/dashboard");
  await previewCounting(page);
  await page.clock.runFor(16_000);
  const dialog = chooser(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe("dashboard trial gate", () => {
  test("free preview counts down 15 s, then the chooser starts a 7-day trial that survives a reload", async ({ page }) => {
    // Two axe runs plus a sign-up and a reload: more than the default minute on a busy 2-core machine.
    test.setTimeout(120_000);
    await signUpVerified(page, { firstName: "Ada" });
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 1_000));
    await gotoHydrated(page, "/dashboard");
    await previewCounting(page);

    await expect(page.getByRole("heading", { name: "Welcome, Ada!" })).toBeVisible();
    const preview = page.getByRole("region", { name: "Free preview" });
    await expect(preview).toContainText("Free Preview: 15s remaining");
    await expect(page.getByText("Start your free trial to access all features")).toBeVisible();
    await expect(page.getByTestId("trial-badge")).toHaveText("Inactive");

    await page.clock.runFor(1_000);
    await expect(preview).toContainText("Free Preview: 14s remaining");
    await page.clock.runFor(13_000);
    await expect(preview).toContainText("Free Preview: 1s remaining");
    await expect(chooser(page)).toHaveCount(0);
    await page.clock.runFor(1_000);
    await page.clock.resume();

    const dialog = chooser(page);
    await expect(dialog).toBeVisible();
    await expect(preview).toHaveCount(0);
    await expect(dialog.getByRole("heading", { name: "Starter" })).toBeVisible();
    await expect(dialog).toContainText("Most Popular");
    await expect(dialog).toContainText("7-day free trial");
    await expect(dialog).toContainText("$3,500/mo");
    await expect(dialog).toContainText("$5,000/mo");
    await expect(dialog).toContainText("$7,000/mo");
    await expect(dialog).toContainText("$10,000/mo");
    await expect(dialog.getByText("30% off")).toHaveCount(2);
    await expect(dialog).toContainText("Cancel anytime · 30-day money-back guarantee");
    await expect(dialog.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    // Modal: Escape does not dismiss it.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, "chooser-1280");

    await dialog.getByRole("button", { name: "Start 7-Day Free Trial" }).click();
    await expect(page.getByText("Trial Started!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(chooser(page)).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Free preview" })).toHaveCount(0);
    await expect(page.getByTestId("trial-remaining")).toHaveText(/^(7d 0h|6d 23h) remaining$/);
    await expect(page.getByTestId("trial-badge")).toHaveText("Active");
    await expect(page.getByRole("heading", { name: "Welcome back, Ada!" })).toBeVisible();
    await expect(page.getByTestId("overview-plan")).toHaveText("Starter");
    await expect(page.getByTestId("overview-plan-value")).toHaveText("$0");
    await expect(page.getByRole("heading", { name: "You're all set!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Explore Features" })).toBeVisible();
    await expect(page.getByRole("link", { name: "View Upgrade Options" })).toHaveAttribute("href", "/packages");
    await screenshot(page, "overview-active-1280");

    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await expect(page.getByTestId("trial-badge")).toHaveText("Active");
    await expect(page.getByTestId("trial-remaining")).toHaveText(/^(7d 0h|6d 23h) remaining$/);
    await expect(page.getByRole("region", { name: "Free preview" })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("the preview state passes axe; a preselected plan is highlighted and Upgrade to Growth goes to the packages page", async ({
    page,
  }) => {
    await signUpVerified(page);
    await page.clock.install();
    await gotoHydrated(page, "/dashboard?plan=growth");
    await expect(page.getByRole("region", { name: "Free preview" })).toBeVisible();
    await previewCounting(page);
    await expectNoAxeViolations(page);
    await screenshot(page, "preview-1280");

    await page.clock.runFor(16_000);
    const dialog = chooser(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('[data-selected="true"]')).toContainText("Growth");
    await dialog.getByRole("link", { name: "Upgrade to Growth" }).click();
    await expect(page).toHaveURL(/\/packages\?tier=growth$/);
  });

  test("at 390 px the free preview box spans the foot of the screen and the page's end scrolls above it", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpVerified(page);
    await page.clock.install();
    await gotoHydrated(page, "/dashboard");
    const preview = page.getByRole("region", { name: "Free preview" });
    await expect(preview).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const box = (await preview.boundingBox())!;
    expect(box.x).toBe(16);
    expect(box.width).toBe(390 - 32);
    // The page's last content ends above the floating box, so nothing stays hidden under it.
    const end = (await page.locator("#dashboard-main > *").last().boundingBox())!;
    expect(end.y + end.height).toBeLessThanOrEqual(box.y);
    await screenshot(page, "preview-390-end", { fullPage: false });
  });

  test("a second trial start is refused (409); an unknown plan and a paid plan are rejected", async ({ page }) => {
    await signUpVerified(page);
    const bad = await page.request.post("/dashboard", {
      headers: { Origin: siteOrigin() },
      form: { intent: "start-trial", plan: "enterprise" },
      maxRedirects: 0,
    });
    expect(bad.status()).toBe(400);
    // Growth is bought on /packages, never started free, whatever the request says.
    const paid = await page.request.post("/dashboard", {
      headers: { Origin: siteOrigin() },
      form: { intent: "start-trial", plan: "growth" },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(400);
    await startTrialByForm(page);
    const again = await page.request.post("/dashboard", {
      headers: { Origin: siteOrigin() },
      form: { intent: "start-trial", plan: "starter" },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(409);
  });

  test("a start refused while the chooser is open shows its error inside the dialog, as an alert beside Start", async ({
    page,
  }) => {
    const dialog = await newAccountAtChooser(page);
    // Another tab starts the trial while this chooser stays open: its own start is then refused (409).
    await startTrialByForm(page);
    const start = dialog.getByRole("button", { name: "Start 7-Day Free Trial" });
    await start.focus();
    await page.keyboard.press("Enter");

    // The modal hides everything outside it from assistive technology, the toaster included.
    const alert = dialog.getByRole("alert");
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("Error Starting Trial");
    await expect(alert).toContainText("Your free trial has already been used. Upgrade to a plan to keep using the dashboard.");
    await expect(start).toBeFocused();
    await expect(start).toHaveAccessibleDescription(/Your free trial has already been used/);
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("a trial start after the session ended goes to sign in, which says why; /auth shows no text from the address", async ({
    page,
  }) => {
    const dialog = await newAccountAtChooser(page);
    await page.context().clearCookies();
    await dialog.getByRole("button", { name: "Start 7-Day Free Trial" }).click();

    await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard&reason=dashboard-trial$/);
    const note = page.getByRole("status").filter({ hasText: "Please sign in to start your trial." });
    await expect(note).toBeVisible();
    await expect(note).toContainText("Authentication Required");

    await gotoHydrated(page, "/auth?next=%2Fdashboard&reason=Your+account+is+locked");
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    await expect(page.getByText("Your account is locked")).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveCount(0);
  });

  test("without JavaScript the chooser is in the page at once, and its plain form starts the trial", async ({
    page,
    browser,
  }) => {
    await signUpVerified(page);
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(await page.context().cookies());
    const noJs = await context.newPage();
    await noJs.goto("/dashboard");
    const dialog = noJs.getByRole("dialog", { name: "Choose Your Plan" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Your free preview has ended.");
    await screenshot(noJs, "chooser-no-js-1280", { fullPage: false });
    await dialog.getByRole("button", { name: "Start 7-Day Free Trial" }).click();
    await expect(noJs).toHaveURL(/\/dashboard\?toast=trial-started$/);
    await expect(noJs.getByRole("dialog")).toHaveCount(0);
    await expect(noJs.getByTestId("free-preview")).toHaveCount(0);
    await context.close();
  });

  test("the chooser has Sign Out, since it covers the sidebar's", async ({ page }) => {
    const dialog = await newAccountAtChooser(page);
    await dialog.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard/);
  });

  test("a subscriber who never started the trial sees the subscription, not the trial prompt", async ({ page }) => {
    await signUpVerified(page, { firstName: "Ada" });
    // Basic bought through the API and paid on the local provider's page, without a trial.
    const started = await page.request.post("/api/checkout", {
      headers: { Origin: siteOrigin() },
      data: { kind: "plan", planType: "basic" },
    });
    expect(started.status(), await started.text()).toBe(200);
    const { url } = (await started.json()) as { url: string };
    expect(url).toMatch(/^\/checkout\/local\/cs_local_/);
    const paid = await page.request.post(url, {
      headers: { Origin: siteOrigin() },
      form: { card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
      maxRedirects: 0,
    });
    expect(paid.status(), await paid.text()).toBe(302);

    await gotoHydrated(page, "/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome back, Ada!" })).toBeVisible();
    await expect(page.getByTestId("trial-badge")).toHaveText("Active");
    await expect(page.getByRole("heading", { name: "Subscription Status" })).toBeVisible();
    await expect(page.getByTestId("subscription-active")).toContainText("Your subscription is active");
    await expect(page.getByRole("link", { name: "View subscription" })).toHaveAttribute("href", "/dashboard/billing");
    await expect(page.getByTestId("overview-plan")).toHaveText("Basic");
    await expect(page.getByTestId("overview-plan-value")).toHaveText("$99/mo");
    await expect(page.getByText("Start your free trial to access all features")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Start Free Trial" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "You're all set!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade Now" })).toHaveCount(0);
    await expect(page.getByRole("dialog", { name: "Choose Your Plan" })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});

test.describe("dashboard shell", () => {
  test("sidebar links, active item, Ctrl+B collapse kept in a 7-day cookie, server-rendered after reload, sign out", async ({
    page,
    context,
  }) => {
    const { email } = await signUpVerified(page);
    await startTrialByForm(page);
    await gotoHydrated(page, "/dashboard");
    await expect(page.getByText("AI Dashboard", { exact: true })).toBeVisible();

    const main = page.getByRole("navigation", { name: "Main Menu" });
    const support = page.getByRole("navigation", { name: "Support" });
    const expected: [string, string][] = [
      ["Overview & Analytics", "/dashboard"],
      ["Subscription & Billing", "/dashboard/billing"],
      ["Add-Ons Marketplace", "/dashboard/addons"],
      ["Scaling Plans", "/dashboard/scaling"],
      ["Onboarding Tracker", "/dashboard/onboarding"],
      ["Profile", "/dashboard/profile"],
    ];
    for (const [name, href] of expected) await expect(main.getByRole("link", { name })).toHaveAttribute("href", href);
    const supportItems: [string, string][] = [
      ["Analytics", "/dashboard/analytics"],
      ["Settings", "/dashboard/settings"],
      ["Support", "/dashboard/support"],
    ];
    for (const [name, href] of supportItems) await expect(support.getByRole("link", { name })).toHaveAttribute("href", href);

    await expect(main.getByRole("link", { name: "Overview & Analytics" })).toHaveAttribute("aria-current", "page");
    await main.getByRole("link", { name: "Onboarding Tracker" }).click();
    await expect(page).toHaveURL(/\/dashboard\/onboarding$/);
    await expect(main.getByRole("link", { name: "Onboarding Tracker" })).toHaveAttribute("aria-current", "page");
    await expect(main.getByRole("link", { name: "Overview & Analytics" })).not.toHaveAttribute("aria-current", "page");

    // Footer: initials, name before the @, email.
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await expect(sidebar).toContainText(email.slice(0, 2).toUpperCase());
    await expect(sidebar).toContainText(email.split("@")[0]!);
    await expect(sidebar).toContainText(email);

    await page.keyboard.press("Control+b");
    await expect(sidebar).toHaveAttribute("data-state", "collapsed");
    await expect(sidebar.getByRole("link", { name: "Onboarding Tracker" })).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === "sidebar_state");
    expect(cookie?.value).toBe("false");
    const sevenDays = Date.now() / 1000 + 604_800;
    expect(Math.abs((cookie?.expires ?? 0) - sevenDays)).toBeLessThan(120);
    await screenshot(page, "collapsed-1280");

    // Server-rendered collapsed: the HTML itself says so, before any script runs.
    const html = await (await page.request.get("/dashboard/onboarding")).text();
    expect(html).toContain('data-state="collapsed"');
    await page.reload();
    await expect(sidebar).toHaveAttribute("data-state", "collapsed");
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await expect(sidebar).toHaveAttribute("data-state", "expanded");

    await sidebar.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);
  });

  test("a sidebar default saved in settings applies at once in this browser, over its earlier toggle", async ({
    page,
    context,
  }) => {
    await signUpVerified(page);
    await startTrialByForm(page);
    await gotoHydrated(page, "/dashboard/settings");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await page.keyboard.press("Control+b");
    await expect(sidebar).toHaveAttribute("data-state", "collapsed");

    await page.getByLabel("expanded").check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByText("Settings saved.")).toBeVisible();
    await expect(sidebar).toHaveAttribute("data-state", "expanded");
    expect((await context.cookies()).find((c) => c.name === "sidebar_state")?.value).toBe("true");

    await page.getByLabel("collapsed").check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(sidebar).toHaveAttribute("data-state", "collapsed");
    await page.reload();
    await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  });

  test("an unknown dashboard page is a 404 inside the dashboard", async ({ page }) => {
    await signUpVerified(page);
    const res = await page.goto("/dashboard/nope");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await expect(page.getByText("AI Dashboard", { exact: true })).toBeVisible();
  });

  test("at 390 px the sidebar is an off-canvas sheet", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpVerified(page);
    await page.clock.install();
    await gotoHydrated(page, "/dashboard?toast=account-created");
    await expect(page.getByRole("region", { name: "Free preview" })).toBeVisible();
    await previewCounting(page);
    await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
    // The toast sits below the header: the menu button stays usable while it shows.
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Account Created!" });
    await expect(toast).toBeVisible();
    const header = (await page.locator("header").first().boundingBox())!;
    expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
    await screenshot(page, "preview-390");
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Open menu" }).click();
    const sheet = page.getByRole("dialog", { name: "Dashboard menu" });
    await expect(sheet).toBeVisible();
    // The menu opens on the current page's link (Radix's default was Sign Out, one Enter from signing out).
    await expect(sheet.getByRole("link", { name: "Overview & Analytics" })).toBeFocused();
    await screenshot(page, "sheet-390", { fullPage: false });
    await sheet.getByRole("link", { name: "Onboarding Tracker" }).click();
    await expect(page).toHaveURL(/\/dashboard\/onboarding$/);
    await expect(sheet).toBeHidden();

    await page.clock.runFor(16_000);
    await expect(chooser(page)).toBeVisible();
    await screenshot(page, "chooser-390", { fullPage: false });
  });
});

test("onboarding: a completed step and the scheduled call persist, with a live countdown", async ({ page }) => {
  await signUpVerified(page);
  await startTrialByForm(page);
  await gotoHydrated(page, "/dashboard/onboarding");
  await expect(page.getByRole("heading", { name: "Onboarding Tracker", level: 1 })).toBeVisible();
  await expect(page.getByText("1 of 8 steps completed")).toBeVisible();
  await expect(page.getByTestId("onboarding-progress")).toHaveText("13%");
  await expect(page.getByTestId("step-create-account")).toContainText("Completed");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Mark complete: Connect your tools" }).click();
  await expect(page.getByText("Step Completed")).toBeVisible();
  await expect(page.getByText("2 of 8 steps completed")).toBeVisible();

  await page.getByRole("button", { name: "Schedule call" }).click();
  await expect(page.getByText("Your onboarding call has been scheduled!")).toBeVisible();
  await expect(page.getByTestId("call-countdown")).toHaveText(/^Starts in [1-2]d \d{1,2}h \d{1,2}m$/);
  await expect(page.getByText(/at 2:00 PM UTC/)).toBeVisible();
  await expect(page.getByText("3 of 8 steps completed")).toBeVisible();

  await page.reload();
  await page.waitForSelector("html[data-hydrated]");
  await expect(page.getByTestId("step-connect-tools")).toContainText("Completed");
  await expect(page.getByTestId("step-schedule-call")).toContainText("Completed");
  await expect(page.getByTestId("call-countdown")).toHaveText(/^Starts in [1-2]d \d{1,2}h \d{1,2}m$/);
  await expect(page.getByText("3 of 8 steps completed")).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, "onboarding-1280");
});
