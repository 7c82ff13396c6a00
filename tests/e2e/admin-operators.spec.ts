import { expect, test } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { CUSTOMER_PASSWORD, signedInContext } from "./support/customer";
import { raw } from "./support/loopback";
import { operatorContext, OPERATOR, unusedTotpCode } from "./support/operator";
import { gotoHydrated } from "./support/page";

/**
 * /admin → Operators: an operator grants the role to another account by email while the server
 * runs (the CLI cannot open a PGlite folder beside it), and that account then opens /admin. Before,
 * /admin is the site's 404 for that account and for a signed-out visitor alike.
 */
test("an operator grants the role from /admin → Operators and that account then opens /admin", async ({ browser }) => {
  const { context: granteeContext, email } = await signedInContext(browser, "grantee");
  const grantee = await granteeContext.newPage();
  // Not an operator yet: the site's 404, like an unknown address.
  expect((await grantee.goto("/admin"))?.status()).toBe(404);
  await expect(grantee.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();

  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  expect((await gotoHydrated(ops, "/admin"))?.status()).toBe(200);
  const section = ops.locator("#operators");
  await expect(section.getByRole("heading", { name: /^Operators/ })).toBeVisible();
  await expect(section.getByRole("row", { name: new RegExp(OPERATOR) })).toContainText("You");
  const field = section.getByLabel("Email of an existing account");
  const grant = section.getByRole("button", { name: "Grant operator role" });

  // An address nobody signed up with: said beside the field, which keeps what was typed.
  await field.fill("nobody-here@example.com");
  await grant.click();
  await expect(section.locator("#grant-operator-email-error")).toHaveText(
    "No account uses nobody-here@example.com. Ask them to sign up first, then grant the role.",
  );
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveValue("nobody-here@example.com");

  await field.fill(email.toUpperCase());
  await grant.click();
  await expect(section.getByRole("status")).toHaveText(`${email} is now an operator.`);
  await expect(field).toHaveValue("");
  const row = section.getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) });
  await expect(row).toContainText("Granted");
  await expect(row.getByRole("button", { name: `Revoke the operator role of ${email}` })).toBeVisible();
  await expectNoAxeViolations(ops);

  // The grantee has no second factor yet: /admin sends them to Settings to turn it on
  // (docs/decisions/0073-two-factor.md). Turning it on replaces their session with one that carries it.
  await grantee.goto("/admin");
  await expect(grantee).toHaveURL(/\/dashboard\/settings\?two-factor=required/);
  await expect(grantee.getByText(/Operators must turn on two-factor authentication/)).toBeVisible();
  const enable = await granteeContext.request.post("/api/auth/two-factor/enable", {
    headers: { Origin: siteOrigin() },
    data: { password: CUSTOMER_PASSWORD },
  });
  expect(enable.status(), await enable.text()).toBe(200);
  const { totpURI } = (await enable.json()) as { totpURI: string };
  const verify = await granteeContext.request.post("/api/auth/two-factor/verify-totp", {
    headers: { Origin: siteOrigin() },
    data: { code: await unusedTotpCode(totpURI) },
  });
  expect(verify.status(), await verify.text()).toBe(200);

  // The grantee, without signing in again: /admin opens, and their own row cannot be revoked.
  expect((await gotoHydrated(grantee, "/admin"))?.status()).toBe(200);
  await expect(grantee.getByRole("heading", { name: "Admin", exact: true })).toBeVisible();
  const own = grantee.locator("#operators").getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) });
  await expect(own).toContainText("You");
  await expect(own.getByRole("button")).toHaveCount(0);
  await opsContext.close();
  await granteeContext.close();
});

test("/admin is the site's 404 page for a signed-out visitor, page and data request", async ({ page }) => {
  const unknown = await page.goto("/no-such-page-at-all");
  expect(unknown?.status()).toBe(404);
  const unknownMain = await page.locator("main").innerText();
  const admin = await page.goto("/admin");
  expect(admin?.status()).toBe(404);
  expect(admin?.url()).toMatch(/\/admin$/);
  // The same page as any unknown address: site header, the 404 text, footer.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect(await page.locator("main").innerText()).toBe(unknownMain);
  await expect(page.locator("footer")).toBeVisible();
  await expect(page).toHaveTitle(/^Page not found/);
  const data = await raw({ path: "/admin.data" });
  expect([data.status, data.headers.location]).toEqual([404, undefined]);
  const post = await raw({
    method: "POST",
    path: "/admin",
    headers: { origin: siteOrigin(), "content-type": "application/x-www-form-urlencoded" },
    body: "intent=grant-operator&email=someone%40example.com",
  });
  expect([post.status, post.headers.location]).toEqual([404, undefined]);
});
