import { expect, test } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { raw } from "./support/loopback";

/** /admin is the site's 404 for everyone but operators: no redirect to sign-in that would reveal it. */

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
