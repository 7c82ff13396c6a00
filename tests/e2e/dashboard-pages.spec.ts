import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { siteOrigin, signUpVerified } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { freshIp, raw } from "./support/loopback";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

const PAGES = [
  { path: "/dashboard/profile", heading: "Profile" },
  { path: "/dashboard/settings", heading: "Settings" },
  { path: "/dashboard/support", heading: "Support" },
  { path: "/dashboard/analytics", heading: "Analytics" },
  { path: "/dashboard/automation", heading: "Apps & Automations" },
  { path: "/dashboard/billing", heading: "Subscription & Billing" },
  { path: "/dashboard/addons", heading: "Add-Ons Marketplace" },
  { path: "/dashboard/scaling", heading: "Scaling Plans" },
];

/** A verified, signed-in customer whose trial has started, so the trial overlay does not cover the pages. */
async function customer(page: Page, opts: Parameters<typeof signUpVerified>[1] = {}) {
  const account = await signUpVerified(page, opts);
  const res = await page.request.post("/dashboard", {
    headers: { Origin: siteOrigin() },
    form: { intent: "start-trial", plan: "starter" },
    maxRedirects: 0,
  });
  expect([200, 302, 303], await res.text()).toContain(res.status());
  return account;
}

/** A signed-in customer in a context of its own (for tests that end or change its session). */
async function separateCustomer(browser: Browser) {
  const context = await browser.newContext({ storageState: EMPTY_STATE });
  const page = await context.newPage();
  const account = await customer(page);
  return { context, page, ...account };
}

// Sign-up is rate limited to 5 a minute per IP: most tests share one customer, signed up once.
const EMPTY_STATE = { cookies: [], origins: [] };
const STATE = path.join(tmpdir(), `dashboard-pages-${process.pid}.json`);
test.describe.configure({ mode: "serial" });
test.use({ storageState: STATE });
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ storageState: EMPTY_STATE });
  await customer(await context.newPage(), { firstName: "Ada", lastName: "Lovelace" });
  await context.storageState({ path: STATE });
  await context.close();
});

test("profile: edit names and see them after a reload", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/profile");
  await expect(page.getByLabel("First name")).toHaveValue("Ada");

  // The server still limits the length (the input's maxlength is lifted to send more).
  // Sign-up's limit (USER_FIELD_LIMITS): 100 characters, in the input too.
  await expect(page.getByLabel("First name")).toHaveAttribute("maxlength", "100");
  await page.getByLabel("First name").evaluate((input) => input.removeAttribute("maxlength"));
  await page.getByLabel("First name").fill("x".repeat(101));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("First name must be at most 100 characters")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");

  // Names are optional, as on sign-up: a company name alone saves.
  await page.getByLabel("First name").fill("");
  await page.getByLabel("Last name").fill("");
  await page.getByLabel("Company name").fill("Analytical Engines");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Profile updated.")).toBeVisible();
  await gotoHydrated(page, "/dashboard/profile");
  await expect(page.getByLabel("First name")).toHaveValue("");
  await expect(page.getByLabel("Last name")).toHaveValue("");
  await expect(page.getByLabel("Company name")).toHaveValue("Analytical Engines");
  await expect(page.getByLabel("First name")).not.toHaveAttribute("required");

  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Company name").fill("Navy Labs");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Profile updated.")).toBeVisible();

  await gotoHydrated(page, "/dashboard/profile");
  await expect(page.getByLabel("First name")).toHaveValue("Grace");
  await expect(page.getByLabel("Last name")).toHaveValue("Hopper");
  await expect(page.getByLabel("Company name")).toHaveValue("Navy Labs");
});

test("profile: change the password, then sign in with the new one", async ({ browser }) => {
  const { context, page, email, password } = await separateCustomer(browser);
  await gotoHydrated(page, "/dashboard/profile");

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("brand-new-password");
  await page.getByLabel("Confirm new password").fill("brand-new-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Current password is incorrect")).toBeVisible();

  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password", { exact: true }).fill("brand-new-password");
  await page.getByLabel("Confirm new password").fill("different-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();

  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password", { exact: true }).fill("brand-new-password");
  await page.getByLabel("Confirm new password").fill("brand-new-password");
  await page.getByLabel("Sign out of other devices").check();
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed.")).toBeVisible();
  // Still signed in here: the renewed session cookie was passed on.
  await gotoHydrated(page, "/dashboard/profile");
  await expect(page).toHaveURL(/\/dashboard\/profile$/);

  // From an address of its own: sign-ins from 127.0.0.1 (the browser's) share one per-IP limit
  // with every other test that signs in there, and a 429 would say nothing about the password.
  const ip = freshIp();
  const signIn = (pw: string) =>
    raw({
      method: "POST",
      path: "/api/auth/sign-in/email",
      ip,
      headers: { origin: siteOrigin() },
      body: { email, password: pw },
    });
  expect((await signIn("brand-new-password")).status).toBe(200);
  expect((await signIn(password)).status).toBe(401);
  await context.close();
});

test("settings: preferences persist across reloads", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/settings");
  await expect(page.getByLabel("Email updates")).toBeChecked();
  await page.getByLabel("SMS alerts").check();
  await page.getByLabel("Email updates").uncheck();
  await page.getByLabel("Collapsed").check();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await gotoHydrated(page, "/dashboard/settings");
  await expect(page.getByLabel("SMS alerts")).toBeChecked();
  await expect(page.getByLabel("Email updates")).not.toBeChecked();
  await expect(page.getByLabel("Collapsed")).toBeChecked();
});

test("settings: sign out of all devices ends the session", async ({ browser }) => {
  const { context, page } = await separateCustomer(browser);
  await gotoHydrated(page, "/dashboard/settings");
  await page.getByRole("button", { name: "Sign out of all devices" }).click();
  await expect(page).toHaveURL(/\/auth/);
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/auth\?next=/);
  await context.close();
});

test("support: a ticket is validated, created, listed after reload and private", async ({ page, browser }) => {
  await gotoHydrated(page, "/dashboard/support");
  await expect(page.getByText("No tickets yet")).toBeVisible();
  await expect(page.getByText("Contact 24/7 support.")).toBeVisible();

  await page.getByLabel("Subject").fill("Hi");
  await page.getByLabel("Category").selectOption("Billing");
  await page.getByLabel("Message").fill("My invoice shows the wrong company name.");
  await page.getByRole("button", { name: "Submit ticket" }).click();
  await expect(page.getByText("Subject must be at least 3 characters")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("My invoice shows the wrong company name.");

  await page.getByLabel("Subject").fill("Wrong company on invoice");
  await page.getByRole("button", { name: "Submit ticket" }).click();
  await expect(page.getByText("Ticket submitted.")).toBeVisible();

  await gotoHydrated(page, "/dashboard/support");
  const list = page.getByRole("list", { name: "Support tickets" });
  await expect(list.getByRole("heading", { name: "Wrong company on invoice" })).toBeVisible();
  await expect(list.getByText("Open", { exact: true })).toBeVisible();

  const { context: otherContext, page: other } = await separateCustomer(browser);
  await gotoHydrated(other, "/dashboard/support");
  await expect(other.getByText("No tickets yet")).toBeVisible();
  await expect(other.getByText("Wrong company on invoice")).toHaveCount(0);
  await otherContext.close();
});

test("analytics shows the headline numbers and either the empty state or the table", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/analytics");
  await expect(page.getByText("Dashboard visits")).toBeVisible();
  const empty = page.getByText("No activity yet");
  const table = page.getByRole("table");
  await expect(empty.or(table)).toBeVisible();
});

test("automation: empty state links to the apps and packages", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/automation");
  await expect(page.getByRole("heading", { name: "No automations yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse Ready-Made Apps" })).toHaveAttribute("href", "/apps");
  await expect(page.getByRole("link", { name: "See Packages" })).toHaveAttribute("href", "/packages");
});

test("billing: Free Trial with the Trial badge and the three plans, each ready to check out", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free Trial");
  await expect(page.getByTestId("plan-status")).toHaveText("Trial");
  await expect(page.getByText("Manage Billing", { exact: true })).toHaveCount(0);
  for (const { name, type, price, contacts } of [
    { name: "Basic", type: "basic", price: "$99", contacts: "10,000 contacts" },
    { name: "Pro", type: "pro", price: "$499", contacts: "100,000 contacts" },
    { name: "Enterprise", type: "enterprise", price: "$999", contacts: "Unlimited contacts" },
  ]) {
    const card = page.getByTestId(`plan-${type}`);
    await expect(card.getByText(price, { exact: true })).toBeVisible();
    await expect(card.getByText(contacts)).toBeVisible();
    await expect(card.getByRole("button", { name: `Choose ${name}` })).toBeEnabled();
  }
  await expect(page.getByText("Popular", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Refresh status" }).click();
  await expect(page.getByText("Subscription status updated")).toBeVisible();
});

test("add-ons: the seeded marketplace, search and category filter in the URL", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/addons");
  await expect(page.getByText(/more features/).first()).toBeVisible();
  await page.getByLabel("Category").selectOption("Marketing");
  await page.getByLabel("Search add-ons").fill("email");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=email/);
  await expect(page).toHaveURL(/category=Marketing/);
  await expect(page.getByLabel("Category")).toHaveValue("Marketing");
});

test("each dashboard page opened counts one visit, by a POST; searching, revalidating and hovering links count none", async ({
  page,
}) => {
  const reports: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/dashboard/visit")) reports.push(`${r.method()} ${r.postData()}`);
  });
  /** Opens a dashboard page and waits until its visit is stored. */
  const open = async (path: string) => {
    const stored = page.waitForResponse((r) => r.url().endsWith("/api/dashboard/visit") && r.status() === 200);
    await gotoHydrated(page, path);
    await stored;
  };
  const visits = async () => {
    await open("/dashboard/analytics");
    const value = page.locator("dt", { hasText: "Dashboard visits" }).locator("xpath=following-sibling::dd");
    // The page shows the visits stored when it was rendered, before its own.
    return Number((await value.innerText()).replace(/,/g, ""));
  };
  const before = await visits();
  await open("/dashboard/addons");
  for (const [category, q] of [
    ["Marketing", "email"],
    ["All", "sms"],
  ] as const) {
    await page.getByLabel("Category").selectOption(category);
    await page.getByLabel("Search add-ons").fill(q);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${q}`));
  }
  // Back from the checkout tab: the page re-reads its data, the layout's gate included (focus
  // within a second of the last render is taken for the same return and ignored, so wait first).
  await page.waitForTimeout(1_100);
  const reread = page.waitForResponse((r) => r.url().includes(".data"));
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await reread;
  // Hovering a sidebar link prefetches its page's data: a read, not a visit.
  await page.getByRole("link", { name: "Scaling Plans" }).first().hover();
  await page.waitForTimeout(500);
  expect(reports).toEqual([`POST {"path":"/dashboard/analytics"}`, `POST {"path":"/dashboard/addons"}`]);
  // The analytics page and the add-ons page were opened: two visits stored, nothing else.
  expect(await visits()).toBe(before + 2);
  // Moving to another page in the app is a visit too.
  const stored = page.waitForResponse((r) => r.url().endsWith("/api/dashboard/visit") && r.status() === 200);
  await page.getByRole("link", { name: "Onboarding Tracker" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/onboarding$/);
  expect((await stored).request().postDataJSON()).toEqual({ path: "/dashboard/onboarding" });
});

test("scaling: the slider moves with the keyboard and shows the selected tier", async ({ page }) => {
  await gotoHydrated(page, "/dashboard/scaling");
  const slider = page.getByRole("slider", { name: "Contacts per month" });
  const selected = page.getByTestId("selected-tier");
  await expect(selected).toContainText("100,000 contacts · $999/month");
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await expect(selected).toContainText("500,000 contacts · $2,499/month");
  await page.keyboard.press("End");
  await expect(selected).toContainText("1,000,000 contacts · $4,999/month");
  await page.keyboard.press("Home");
  await expect(selected).toContainText("10,000 contacts · $199/month");
  await expect(slider).toHaveAttribute("aria-valuenow", "0");
  await expect(page.getByRole("heading", { name: "Need more than 1M contacts?" })).toBeVisible();
  await expect(page.getByRole("link", { name: /BOOK DEMO/ })).toHaveAttribute("href", /^https?:\/\//);
});

test("signed out, every page redirects to /auth", async ({ browser }) => {
  const context = await browser.newContext({ storageState: EMPTY_STATE });
  const page = await context.newPage();
  for (const { path } of PAGES) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/auth\\?next=${encodeURIComponent(path)}$`));
  }
  await context.close();
});

// One test a page (not one for all eight): on a slow machine the whole sweep neared its timeout, and in
// this serial file one failure re-runs every test.
for (const { path: pagePath, heading } of PAGES) {
  test(`${pagePath} has its heading and no axe violations, at 1280 and 390 px`, async ({ page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await gotoHydrated(page, pagePath);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect(page).toHaveTitle(/AI Dashboard/);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      // No horizontal scrolling at phone width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${pagePath} at ${width}px`).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
      await screenshot(page, `${pagePath.split("/").pop()}-${width}`);
    }
  });
}
