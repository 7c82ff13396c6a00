import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signUpVerified, siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { payWith } from "./support/customer";
import { cookieHeader, freshIp, mailLink, raw } from "./support/loopback";
import { OPERATOR, OPERATOR_PASSWORD, operatorTotpUri, unusedTotpCode } from "./support/operator";
import { gotoHydrated } from "./support/page";
import { screenshot, screenshotAt } from "./support/screenshots";

/**
 * Affiliate payouts (docs/decisions/0067-affiliate-payouts.md), with the e2e server's hold period of
 * 0 days: an affiliate enters a payout email, a referred customer buys the Pro plan (30% of $499 is
 * over the $50 minimum), the operator signs in with password and TOTP code, creates a payout run,
 * downloads its PayPal CSV and confirms it; the affiliate then sees the payout as paid.
 */
test("an operator with TOTP runs a payout, downloads the CSV and confirms it; the affiliate sees it paid", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // 1. An affiliate, from the sign-up form and its verification link.
  const email = uniqueEmail("payee");
  const username = `pay-${Date.now().toString(36)}-${process.pid}`.slice(0, 30);
  const ip = freshIp();
  const signup = await raw({
    method: "POST",
    path: "/affiliate-signup",
    ip,
    headers: { origin: siteOrigin(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      intent: "signup",
      firstName: "Payee",
      lastName: "Affiliate",
      email,
      password: "analytical-engine",
      businessName: "Payees Ltd",
      username,
    }).toString(),
  });
  expect(signup.status, signup.text.slice(0, 300)).toBe(200);
  const verify = await raw({ path: await mailLink(email, /verify/i), ip });
  const affiliateContext = await browser.newContext();
  await affiliateContext.addCookies(siteCookies(cookieHeader(verify.setCookies)));
  const affiliate = await affiliateContext.newPage();
  await gotoHydrated(affiliate, "/affiliate-dashboard");
  const payouts = affiliate.locator("#payouts");
  await expect(payouts.getByText("No payouts yet.")).toBeVisible();
  // The payout email: refused when it is not one, saved when it is.
  const paypal = `paypal-${username}@example.com`;
  await payouts.getByLabel("PayPal email for payouts").fill("=cmd@x.com");
  await payouts.getByRole("button", { name: "Save payout email" }).click();
  await expect(payouts.getByText("Enter a valid email address.")).toBeVisible();
  await payouts.getByLabel("PayPal email for payouts").fill(paypal);
  await payouts.getByRole("button", { name: "Save payout email" }).click();
  await expect(payouts.getByText("Payout email saved.")).toBeVisible();

  // 2. A customer referred by the affiliate buys the Pro plan.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await buyer.goto(`/ref/${username}`);
  await signUpVerified(buyer, { firstName: "Referred", lastName: "Buyer" });
  const checkout = await buyerContext.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "plan", planType: "pro" },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  await gotoHydrated(buyer, ((await checkout.json()) as { url: string }).url);
  await payWith(buyer, "4242 4242 4242 4242");
  await expect(buyer).toHaveURL(/\/dashboard\/billing/);
  await buyerContext.close();

  // 3. The operator signs in with password and TOTP code.
  const uri = await operatorTotpUri();
  const opsContext = await browser.newContext({ acceptDownloads: true });
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, "/auth?next=%2Fadmin%2Fpayouts");
  await ops.getByLabel("Email").fill(OPERATOR);
  await ops.getByLabel("Password").fill(OPERATOR_PASSWORD);
  await ops.getByRole("button", { name: "Sign In" }).click();
  await expect(ops.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await ops.getByLabel("Authentication code").fill(await unusedTotpCode(uri));
  await ops.getByRole("button", { name: "Verify" }).click();
  await expect(ops).toHaveURL(/\/admin\/payouts$/);
  await expect(ops.getByRole("heading", { name: "Affiliate payouts" })).toBeVisible();

  // 4. The preview lists the affiliate; a run is created, its CSV downloaded, and it is confirmed.
  const line = ops.getByTestId("payout-preview").locator("tr", { hasText: `@${username}` });
  await expect(line).toContainText("$149.70");
  await expect(line).toContainText("Paid in this run");
  await expectNoAxeViolations(ops);
  await screenshot(ops, "admin-payouts-preview");
  await ops.getByRole("button", { name: "Create payout run" }).click();
  await expect(ops.getByRole("status")).toContainText(/Payout run \d+ created/);
  const run = ops.locator("section", { hasText: `@${username}` }).first();
  await expect(run.getByRole("heading")).toContainText("Open: awaiting payment");
  const [download] = await Promise.all([ops.waitForEvent("download"), run.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^payout-run-\d+\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv).toMatch(new RegExp(`^${paypal.replace(/[.+]/g, "\\$&")},149\\.70,USD,PAYOUT-\\d+,[^\\r\\n]+,PAYPAL\\r$`, "m"));
  await screenshotAt(ops, "admin-payouts-open-run", [1280, 390]);
  await run.getByLabel("PayPal has paid this run").check();
  await run.getByRole("button", { name: "Confirm paid" }).click();
  await expect(ops.getByRole("status")).toContainText(/marked paid/);
  await expect(run.getByRole("heading")).toContainText("Paid");
  await opsContext.close();

  // 5. The affiliate sees the payout, paid, and the balance as paid.
  await gotoHydrated(affiliate, "/affiliate-dashboard");
  await expect(payouts.getByTestId("payout-list")).toContainText("$149.70");
  await expect(payouts.getByTestId("payout-list")).toContainText(paypal);
  await expect(payouts.getByTestId("payout-list")).toContainText("Paid");
  await expect(payouts.getByTestId("payout-balances")).toContainText("$149.70");
  await expectNoAxeViolations(affiliate);
  await screenshotAt(affiliate, "affiliate-payouts", [1280, 390]);
  await affiliateContext.close();
});
