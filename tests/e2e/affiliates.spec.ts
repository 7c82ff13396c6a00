import { expect, test, type Page } from "@playwright/test";
import { BILLING_PLANS } from "../../app/catalogue/plans";
import { formatDollars } from "../../app/catalogue/pricing";
import { commissionFor } from "../../app/server/affiliates/ledger.server";
import { latestMailLink, signUpVerified, siteOrigin, uniqueEmail } from "./support/auth";
import { operatorContext } from "./support/operator";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";
import { screenshotAt } from "./support/screenshots";

/**
 * Affiliates end to end: an affiliate signs up and verifies, a visitor arrives through the referral
 * link, signs up and pays for a plan on the local test checkout, and the affiliate's dashboard shows
 * the click, the sign-up, the paying customer and exactly 30% of the payment. The operator's /admin
 * is a 404 for everyone else, signed in or not. Run with OPERATOR_EMAILS=ops@example.com in the environment.
 */
const OPERATOR_EMAIL = "ops@example.com";
// A plan is paid at checkout; a one-time app's payment (and its commission) waits for its 3-day trial to end.
const plan = BILLING_PLANS.find((p) => p.type === "basic")!;
const expectedCommission = commissionFor(plan.monthlyPrice);
const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(cents / 100);

const shoot = (page: Page, name: string) => screenshotAt(page, name, [1280, 390]);

const stat = (page: Page, label: string) => page.getByTestId(`stat-${label}`).locator("dd");

test("affiliate sign-up, referral click, referred purchase and a 30% commission; /admin for operators only", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // 1. The affiliate signs up on /affiliate-signup and verifies through the dev mailbox.
  const affiliateContext = await browser.newContext();
  const affiliate = await affiliateContext.newPage();
  const email = uniqueEmail("affiliate");
  const username = `aff-${Date.now().toString(36)}-${process.pid}`.slice(0, 30);
  await gotoHydrated(affiliate, "/affiliate-signup");
  await expect(affiliate.getByRole("heading", { name: /Earn 30% lifetime commission/ })).toBeVisible();
  await expect(affiliate.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", /\/auth/);
  await expectNoAxeViolations(affiliate);
  await shoot(affiliate, "affiliate-signup");

  // Invalid fields come back as messages beside them (server-side validation).
  await affiliate.getByLabel("First name").fill("Ada");
  await affiliate.getByLabel("Last name").fill("Lovelace");
  await affiliate.getByLabel("Email").fill(email);
  await affiliate.getByLabel("Password").fill("short");
  await affiliate.getByLabel("Business name (optional)").fill("Engines Ltd");
  await affiliate.getByLabel("Username (optional)").fill("x");
  // The browser's own minLength check would stop the submit: drop it to see the server's answer.
  await affiliate.getByLabel("Password").evaluate((el) => el.removeAttribute("minlength"));
  await affiliate.getByRole("button", { name: "Join the Affiliate Program" }).click();
  await expect(affiliate.locator("#aff-password-error")).toHaveText("Password must be at least 8 characters");
  await expect(affiliate.locator("#aff-username-error")).toHaveText(/at least 3 characters/);
  await expect(affiliate.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(affiliate.getByText("Signup failed")).toBeVisible();

  await affiliate.getByLabel("Password").fill("analytical-engine");
  await affiliate.getByLabel("Username (optional)").fill(username);
  await affiliate.getByRole("button", { name: "Join the Affiliate Program" }).click();
  await expect(affiliate.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(affiliate.getByText(`/ref/${username}`)).toBeVisible();
  await shoot(affiliate, "affiliate-signup-done");

  const verify = await latestMailLink(affiliate, email, /verify/i);
  await affiliate.goto(verify);
  await affiliate.waitForSelector("html[data-hydrated]");
  await expect(affiliate).toHaveURL(/\/affiliate-dashboard$/);
  await expect(affiliate.getByRole("heading", { name: "Affiliate Dashboard" })).toBeVisible();
  await expect(affiliate.getByText("Account Created!")).toBeVisible();
  const link = `${siteOrigin()}/ref/${username}`;
  await expect(affiliate.getByLabel("Your referral link")).toHaveValue(link);
  await expect(stat(affiliate, "Clicks")).toHaveText("0");

  // Copy button with a polite confirmation.
  await affiliateContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: siteOrigin() });
  await affiliate.getByRole("button", { name: "Copy link" }).click();
  await expect(affiliate.getByText("Referral link copied to the clipboard.")).toBeVisible();

  // A second affiliate sign-up with the same username is a clear field message.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await gotoHydrated(otherPage, "/affiliate-signup");
  await otherPage.getByLabel("First name").fill("Grace");
  await otherPage.getByLabel("Last name").fill("Hopper");
  await otherPage.getByLabel("Email").fill(uniqueEmail("dup"));
  await otherPage.getByLabel("Password").fill("cobol-forever");
  await otherPage.getByLabel("Username (optional)").fill(username.toUpperCase());
  await otherPage.getByRole("button", { name: "Join the Affiliate Program" }).click();
  await expect(otherPage.locator("#aff-username-error")).toHaveText("This username is already taken. Please choose another.");
  await expect(otherPage.getByText("Signup failed")).toBeVisible();
  await shoot(otherPage, "affiliate-signup-taken");
  await other.close();

  // 2. A visitor in a fresh browser opens the referral link: home page, cookie, one click.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const unknown = await visitor.goto("/ref/nobody-by-that-name");
  expect(unknown?.status()).toBe(200);
  expect(await unknown?.headerValue("set-cookie")).toBeNull();
  expect((await visitorContext.cookies()).find((c) => c.name === "ref")).toBeUndefined();

  const visit = await gotoHydrated(visitor, `/ref/${username}`);
  expect(visit?.status()).toBe(200);
  await expect(visitor.getByRole("heading", { level: 1 })).toContainText("AI is the Future");
  const ref = (await visitorContext.cookies()).find((c) => c.name === "ref");
  expect(ref).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
  // `{username}.{day}` and its signature (HMAC-SHA256 with the auth secret, base64url).
  expect(ref!.value).toMatch(new RegExp(`^${username}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
  expect(ref!.expires - Date.now() / 1000).toBeGreaterThan(29 * 24 * 60 * 60);
  // Reloading the link the same day does not count another click.
  await visitor.goto(`/ref/${username}`);

  // 3. The visitor signs up (carrying the cookie) and pays for the Basic plan on the local test checkout.
  await signUpVerified(visitor, { firstName: "Referred", lastName: "Customer" });
  const checkout = await visitor.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "plan", planType: plan.type },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  await gotoHydrated(visitor, url);
  await visitor.getByLabel("Card number").fill("4242 4242 4242 4242");
  await visitor.getByLabel("Expiry (MM/YY)").fill("12/34");
  await visitor.getByLabel("CVC").fill("123");
  await visitor.getByRole("button", { name: `Pay ${formatDollars(plan.monthlyPrice)}` }).click();
  // Back on billing (its `?success=true` is dropped once the page has synced, so not checked for).
  await expect(visitor).toHaveURL(/\/dashboard\/billing/);

  // Someone who writes the affiliate into the cookie themselves (no signature, or the real cookie's
  // signature on another day) signs up unattributed.
  const forger = await browser.newContext();
  const forgerPage = await forger.newPage();
  const signature = ref!.value.split(".").at(-1);
  for (const value of [`${username}.1`, `${username}.1.${signature}`]) {
    await forger.clearCookies();
    await forger.addCookies([{ name: "ref", value, url: siteOrigin() }]);
    await signUpVerified(forgerPage, { firstName: "Forged", lastName: "Referral" });
  }
  await forger.close();

  // 4. The affiliate's dashboard: 1 click, 1 sign-up, 1 paying customer, exactly 30%.
  await gotoHydrated(affiliate, "/affiliate-dashboard");
  await expect(stat(affiliate, "Clicks")).toHaveText("1");
  await expect(stat(affiliate, "Sign-ups")).toHaveText("1");
  await expect(stat(affiliate, "Paying customers")).toHaveText("1");
  await expect(stat(affiliate, "Commission pending")).toHaveText(money(expectedCommission));
  await expect(stat(affiliate, "Commission paid")).toHaveText("$0.00");
  expect(expectedCommission).toBe(Math.round(plan.monthlyPrice * 0.3));
  const ledger = affiliate.getByTestId("ledger");
  await expect(ledger.getByRole("row")).toHaveCount(2);
  await expect(ledger.getByRole("row").nth(1)).toContainText(money(expectedCommission));
  await expect(ledger.getByRole("row").nth(1)).toContainText("Customer 1");
  await affiliate.waitForSelector(".recharts-surface");
  await expectNoAxeViolations(affiliate);
  await shoot(affiliate, "affiliate-dashboard");

  // 5. /admin: 404 for a normal signed-in user (page and data request), like an unknown page.
  const unknownPage = await visitor.goto("/no-such-page-here");
  expect(unknownPage?.status()).toBe(404);
  const adminForCustomer = await visitor.goto("/admin");
  expect(adminForCustomer?.status()).toBe(404);
  await expect(visitor.getByText("Oops! Page not found")).toBeVisible();
  const adminData = await visitor.request.get("/admin.data");
  expect(adminData.status()).toBe(404);
  const retry = await visitor.request.post("/admin", {
    headers: { Origin: siteOrigin() },
    form: { intent: "retry-lead", leadId: "x" },
    maxRedirects: 0,
  });
  expect(retry.status()).toBe(404);
  // The affiliate (not an operator) too, and a signed-out visitor: no redirect to sign-in, which
  // would tell them the page exists.
  expect((await affiliate.request.get("/admin.data")).status()).toBe(404);
  const signedOut = await browser.newContext();
  const anonymous = await signedOut.request.get("/admin", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(404);
  expect(anonymous.headers().location).toBeUndefined();
  const anonymousPage = await signedOut.newPage();
  expect((await anonymousPage.goto("/admin"))?.status()).toBe(404);
  await expect(anonymousPage.getByText("Oops! Page not found")).toBeVisible();
  expect((await signedOut.request.get("/admin.data", { maxRedirects: 0 })).status()).toBe(404);
  await signedOut.close();

  // An operator (OPERATOR_EMAILS) sees leads, orders, customers and the affiliate's ledger totals.
  if (process.env.OPERATOR_EMAILS?.includes(OPERATOR_EMAIL)) {
    // Signed in with password and TOTP code: /admin takes no other session (docs/decisions/0073-two-factor.md).
    const opsContext = await operatorContext(browser);
    const ops = await opsContext.newPage();
    const admin = await gotoHydrated(ops, "/admin");
    expect(admin?.status()).toBe(200);
    await expect(ops.getByRole("heading", { name: /^Leads/ })).toBeVisible();
    await expect(ops.getByRole("heading", { name: /^Orders/ })).toBeVisible();
    await expect(ops.getByRole("heading", { name: /^Customers/ })).toBeVisible();
    const row = ops.locator("#affiliates tr", { hasText: username });
    await expect(row).toContainText(email);
    await expect(row).toContainText(money(expectedCommission));
    await expect(ops.locator("#orders tr", { hasText: `${plan.name} Plan` }).first()).toContainText("paid");
    await expectNoAxeViolations(ops);
    await shoot(ops, "admin");
    await opsContext.close();
  }
  await visitorContext.close();
  await affiliateContext.close();
});
