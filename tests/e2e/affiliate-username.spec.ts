import { expect, test } from "@playwright/test";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { createVerifiedAccount } from "./support/loopback";
import { gotoHydrated } from "./support/page";

/**
 * The referral link shown under the username field follows what is typed, normalised as the
 * server stores it (trimmed, lower-case), and falls back to the suggestion (or the example) when
 * the field is empty (docs/decisions/0011).
 */

test("the join form's link follows the typed username and falls back to the suggestion", async ({ browser }) => {
  const email = uniqueEmail("aff-join");
  const { cookie } = await createVerifiedAccount(email, "correct-horse-battery", siteOrigin(), {
    firstName: "Grace",
    lastName: "Hopper",
  });
  const context = await browser.newContext();
  await context.addCookies(siteCookies(cookie));
  const page = await context.newPage();
  await gotoHydrated(page, "/affiliate-signup");
  const field = page.getByLabel("Username (optional)");
  const hint = page.locator("#join-username-hint");
  const suggestion = await field.inputValue();
  expect(suggestion).toMatch(/^gracehopper\d{1,3}$/);
  await expect(hint).toContainText(new RegExp(`Your link: \\S+/ref/${suggestion}$`));

  await field.fill("  Amazing-Grace ");
  await expect(hint).toContainText(/Your link: \S+\/ref\/amazing-grace$/);
  await expect(field).toHaveAttribute("aria-describedby", "join-username-hint");

  await field.fill("");
  await expect(hint).toContainText(new RegExp(`Your link: \\S+/ref/${suggestion}$`));
  await context.close();
});

test("the sign-up form shows an example until a username is typed, then the typed link", async ({ page }) => {
  await gotoHydrated(page, "/affiliate-signup");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  const hint = page.locator("#aff-username-hint");
  await expect(hint).toContainText(/Leave it empty for your name plus a number, e\.g\. \S+\/ref\/adalovelace123$/);
  await page.getByLabel("Username (optional)").fill("Countess_Ada");
  await expect(hint).toContainText(/Your link: \S+\/ref\/countess_ada$/);
  await expect(hint).not.toContainText("Leave it empty");
});

test("a reserved username is said in the hint while typing and refused beside the field by the server", async ({ page }) => {
  await gotoHydrated(page, "/affiliate-signup");
  const field = page.getByLabel("Username (optional)");
  const hint = page.locator("#aff-username-hint");
  await field.fill("No_Reply");
  await expect(hint).toContainText("This username is reserved. Please choose another.");
  await expect(hint).not.toContainText("Your link");
  await page.getByLabel("First name").fill("Res");
  await page.getByLabel("Last name").fill("Erved");
  await page.getByLabel("Email").fill(uniqueEmail("aff-reserved"));
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Join the Affiliate Program" }).click();
  await expect(page.locator("#aff-username-error")).toHaveText("This username is reserved. Please choose another.");
  await expect(page.getByRole("heading", { name: "Check your email" })).toHaveCount(0);
});
