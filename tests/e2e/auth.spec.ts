import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { latestMailLink, siteOrigin, uniqueEmail } from "./support/auth";
import { createVerifiedAccount } from "./support/loopback";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

const PASSWORD = "correct-horse-battery";

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]", { hasText: title });

async function signInThroughForm(page: Page, email: string, password: string) {
  const panel = page.getByRole("tabpanel", { name: "Sign In" });
  await panel.getByLabel("Email").fill(email);
  await panel.getByLabel("Password", { exact: true }).fill(password);
  await panel.getByRole("button", { name: "Sign In" }).click();
}

/** An account created and verified from a loopback address of its own (spends no 127.0.0.1 budget). */
async function account(prefix: string, password = PASSWORD) {
  const email = uniqueEmail(prefix);
  await createVerifiedAccount(email, password, siteOrigin());
  return { email, password };
}

test("sign up, verify by email, sign out, then sign in again", async ({ page }) => {
  const email = uniqueEmail("ui-signup");
  await gotoHydrated(page, "/auth?tab=signup");
  const panel = page.getByRole("tabpanel", { name: "Sign Up" });
  await panel.getByLabel("First name").fill("Ada");
  await panel.getByLabel("Last name").fill("Lovelace");
  await panel.getByLabel("Company name (optional)").fill("Analytical Engines");
  await panel.getByLabel("Email").fill(email);
  await panel.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await panel.getByRole("button", { name: "Create Account" }).click();

  const message = "Account created successfully! Please check your email to verify your account.";
  await expect(panel.getByRole("status")).toHaveText(message);
  await expect(toast(page, message)).toBeVisible();
  // Not signed in yet: the dashboard still sends us to /auth.
  expect((await page.request.get("/api/auth/get-session")).ok()).toBe(true);
  expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();

  // The verification link signs the new customer in and opens the dashboard.
  await page.goto(await latestMailLink(page, email, /verify/i));
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
  const session = (await (await page.request.get("/api/auth/get-session")).json()) as {
    user: { email: string; firstName: string; lastName: string; companyName: string; name: string };
  };
  expect(session.user).toMatchObject({
    email,
    firstName: "Ada",
    lastName: "Lovelace",
    companyName: "Analytical Engines",
    name: "Ada Lovelace",
  });

  // Signed in, /auth goes straight to the dashboard.
  await page.goto("/auth");
  await expect(page).toHaveURL(/\/dashboard$/);

  const out = await page.request.post("/api/auth/sign-out", { headers: { Origin: siteOrigin() }, data: {} });
  expect(out.status()).toBe(200);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);

  await page.waitForSelector("html[data-hydrated]");
  const landed = page.waitForURL(/\/dashboard\?toast=welcome-back$/);
  await signInThroughForm(page, email, PASSWORD);
  await landed;
});

test("a wrong password and an unknown email get the same alert and a 'Sign In Failed' toast", async ({ page }) => {
  const { email } = await account("ui-wrong");
  // Hold the submission until the loading state has been seen.
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/auth.data*", async (route) => {
    await held;
    await route.continue();
  });
  await gotoHydrated(page, "/auth");
  await signInThroughForm(page, email, "not-the-password");
  await expect(page.getByRole("button", { name: "Signing in..." })).toBeDisabled();
  release?.();
  const alert = page.getByRole("tabpanel", { name: "Sign In" }).getByRole("alert");
  await expect(alert).toHaveText("Invalid email or password");
  await expect(toast(page, "Sign In Failed")).toBeVisible();
  await expect(toast(page, "Sign In Failed")).toContainText("Invalid email or password");
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeEnabled();

  await gotoHydrated(page, "/auth");
  await signInThroughForm(page, uniqueEmail("ui-nobody"), "not-the-password");
  await expect(alert).toHaveText("Invalid email or password");
  await expect(toast(page, "Sign In Failed")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("without Google's client id and secret no tab offers Google, and a forged Google post is told it is not configured", async ({
  page,
  baseURL,
}) => {
  for (const tab of ["signin", "signup"]) {
    await gotoHydrated(page, `/auth?tab=${tab}`);
    await expect(page.getByRole("button", { name: tab === "signin" ? "Sign In" : "Create Account" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);
    await expect(page.getByText("Or continue with")).toHaveCount(0);
  }
  await screenshot(page, "auth-without-google", { fullPage: false });

  // The form the page no longer shows, posted anyway: the server still refuses it with the reason.
  const forged = await page.request.post("/auth?tab=signin", {
    form: { intent: "google" },
    headers: { origin: baseURL!, accept: "text/html" },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain("Google sign-in is not configured on this server.");
});

test("a Google sign-in that comes back with an error lands on Sign In, which says it did not complete, with the toast", async ({
  page,
}) => {
  // Where Better Auth sends a failed Google callback (onAPIError.errorURL, or the sign-in's errorCallbackURL).
  for (const url of ["/auth?tab=signin&error=state_mismatch", "/auth?tab=signin&error=google&error=account_not_linked"]) {
    await gotoHydrated(page, url);
    await expect(page.getByRole("alert").filter({ hasText: "Google sign-in did not complete. Please try again." })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Sign In", selected: true })).toBeVisible();
    // And the spec's toast (section 8), once.
    await expect(toast(page, "Google Sign In Failed")).toHaveCount(1);
  }
  await screenshot(page, "auth-google-error", { fullPage: false });
});

test("forgot password: the same message for a known and an unknown email", async ({ page }) => {
  const { email } = await account("ui-forgot");
  await gotoHydrated(page, "/auth");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/auth\?tab=reset$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your password");

  const message = "If an account exists for that email, we've sent a reset link.";
  for (const who of [email, uniqueEmail("ui-nobody")]) {
    await gotoHydrated(page, "/auth?tab=reset");
    await page.getByLabel("Email").fill(who);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toHaveText(message);
  }
  expect(await latestMailLink(page, email, /reset/i)).toContain("/api/auth/reset-password/");
});

test("the reset link sets a new password: the new one signs in, the old one no longer does", async ({ page }) => {
  const { email } = await account("ui-reset");
  await gotoHydrated(page, "/auth?tab=reset");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toBeVisible();

  await page.goto(await latestMailLink(page, email, /reset/i));
  await expect(page).toHaveURL(/\/auth\?tab=reset&token=/);
  await page.waitForSelector("html[data-hydrated]");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
  const fresh = "a brand new passphrase";
  await page.getByLabel("New password").fill(fresh);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin&reset=done$/);
  await expect(page.getByRole("status")).toHaveText("Password updated. Please sign in.");

  await signInThroughForm(page, email, PASSWORD);
  await expect(page.getByRole("tabpanel", { name: "Sign In" }).getByRole("alert")).toHaveText("Invalid email or password");

  const landed = page.waitForURL(/\/dashboard\?toast=welcome-back$/);
  await signInThroughForm(page, email, fresh);
  await landed;
});

test("a used or forged reset token is refused", async ({ page }) => {
  await gotoHydrated(page, "/auth?tab=reset&token=forged-token");
  await page.getByLabel("New password").fill("whatever passphrase");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("alert")).toHaveText("This reset link is invalid or has expired. Please request a new one.");
});

test("?next= is honoured for paths on the site and ignored otherwise", async ({ page }) => {
  const { email } = await account("ui-next");
  await gotoHydrated(page, "/auth?next=/dashboard/billing");
  let landed = page.waitForURL(/\/dashboard\/billing\?toast=welcome-back$/);
  await signInThroughForm(page, email, PASSWORD);
  await landed;

  await page.context().clearCookies();
  await gotoHydrated(page, "/auth?next=//evil.example");
  landed = page.waitForURL(/\/dashboard\?toast=welcome-back$/);
  await signInThroughForm(page, email, PASSWORD);
  await landed;
  expect(new URL(page.url()).origin).toBe(siteOrigin());
});

test("without JavaScript: tabs switch, errors show and sign-in works", async ({ browser }) => {
  const { email } = await account("ui-nojs");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  await page.getByRole("tab", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);

  await signInThroughForm(page, email, "not-the-password");
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");

  await signInThroughForm(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\?toast=welcome-back$/);
  await context.close();
});

test("sign-up shows field errors next to the fields", async ({ page }) => {
  await gotoHydrated(page, "/auth?tab=signup");
  const panel = page.getByRole("tabpanel", { name: "Sign Up" });
  // Bypass the browser's own checks to see the server's messages.
  await panel
    .locator("form")
    .first()
    .evaluate((f) => f.setAttribute("novalidate", ""));
  await panel.getByLabel("Email").fill("not-an-email");
  await panel.getByLabel("Password", { exact: true }).fill("short");
  await panel.getByRole("button", { name: "Create Account" }).click();
  await expect(panel.getByRole("alert")).toHaveText("Please check the highlighted fields.");
  await expect(toast(page, "Sign Up Failed")).toBeVisible();
  const emailInput = panel.getByLabel("Email");
  await expect(emailInput).toHaveAttribute("aria-invalid", "true");
  await expect(emailInput).toHaveAccessibleDescription("Enter a valid email address");
  await expect(panel.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(
    /Password must be at least 8 characters/,
  );
  await expectNoAxeViolations(page);
});

test("no axe violations on each tab, with the right autocomplete hints", async ({ page }) => {
  await gotoHydrated(page, "/auth");
  await expect(page).toHaveTitle(/Sign In/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("autocomplete", "current-password");
  await expect(page.getByRole("tabpanel", { name: "Sign In" }).getByLabel("Email")).toHaveAttribute("autocomplete", "email");
  await expectNoAxeViolations(page);

  await page.getByRole("tab", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/tab=signup/);
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("autocomplete", "new-password");
  await expectNoAxeViolations(page);

  await gotoHydrated(page, "/auth?tab=reset");
  await expectNoAxeViolations(page);
  await gotoHydrated(page, "/auth?tab=reset&token=abc");
  await expect(page.getByLabel("New password")).toHaveAttribute("autocomplete", "new-password");
  await expectNoAxeViolations(page);
});
