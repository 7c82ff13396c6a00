import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { CUSTOMER_PASSWORD, signedInContext } from "./support/customer";
import { unusedTotpCode } from "./support/operator";
import { gotoHydrated } from "./support/page";
import { screenshot, screenshotAt } from "./support/screenshots";

/**
 * Two-factor authentication (docs/decisions/0073-two-factor.md): a customer turns it on in Settings
 * (password, QR code and key, recovery codes, a first code), then signs in with password and code,
 * and once with a recovery code.
 */
async function signIn(page: Page, email: string, code: string) {
  await gotoHydrated(page, "/auth?next=%2Fdashboard%2Fsettings");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(CUSTOMER_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await expect(page).toHaveURL(/step=code/);
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test("a customer turns on two-factor in Settings, then signs in with a code and with a recovery code", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, email } = await signedInContext(browser, "two-factor", { trial: true });
  const page = await context.newPage();
  await gotoHydrated(page, "/dashboard/settings");
  const card = page.locator("#two-factor");
  await expect(card.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();

  // A wrong password is the field's message.
  await card.getByLabel("Password").fill("not-my-password");
  await card.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(card.getByText("That password is not correct.")).toBeVisible();

  await card.getByLabel("Password").fill(CUSTOMER_PASSWORD);
  await card.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(card.getByTestId("two-factor-qr").locator("svg")).toBeVisible();
  const key = (await card.getByTestId("two-factor-key").textContent())!.trim();
  expect(key).toMatch(/^[A-Z2-7]+$/);
  const recovery = await card.getByTestId("recovery-codes").locator("li").allTextContents();
  expect(recovery).toHaveLength(10);
  await expect(card.getByRole("link", { name: "Download recovery codes" })).toHaveAttribute("download", /\.txt$/);
  await expectNoAxeViolations(page);
  await screenshotAt(page, "settings-two-factor-setup", [1280, 390]);

  const uri = `otpauth://totp/x?secret=${key}`;
  await card.getByLabel(/Enter the 6-digit code/).fill("000000");
  await card.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(card.getByText(/That code is not valid/)).toBeVisible();
  // The QR code and the key stay on the page after a wrong code.
  await expect(card.getByTestId("two-factor-key")).toHaveText(key);
  await card.getByLabel(/Enter the 6-digit code/).fill(await unusedTotpCode(uri));
  await card.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(card.getByText("Two-factor authentication is on. Each sign-in now asks for a code.")).toBeVisible();
  await expect(card.getByRole("button", { name: "Turn off two-factor authentication" })).toBeVisible();
  await screenshot(page, "settings-two-factor-on");
  await context.close();

  // Signing in: the password, then a code; a wrong one is said so.
  const second = await browser.newContext();
  const signInPage = await second.newPage();
  await signIn(signInPage, email, "000000");
  await expect(signInPage.getByText(/That code is not valid/)).toBeVisible();
  await expectNoAxeViolations(signInPage);
  await screenshot(signInPage, "auth-two-factor-step");
  await signInPage.getByLabel("Authentication code").fill(await unusedTotpCode(uri));
  await signInPage.getByRole("button", { name: "Verify" }).click();
  await expect(signInPage).toHaveURL(/\/dashboard\/settings/);
  await second.close();

  // A recovery code signs in once.
  const third = await browser.newContext();
  const recoveryPage = await third.newPage();
  await signIn(recoveryPage, email, recovery[0]!);
  await expect(recoveryPage).toHaveURL(/\/dashboard\/settings/);
  await third.close();
});
