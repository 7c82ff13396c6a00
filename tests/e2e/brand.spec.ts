import { expect, test } from "@playwright/test";
import { signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

test("/favicon.ico is the site's icon, not a 404", async ({ request }) => {
  const res = await request.get("/favicon.ico");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/icon/);
  const body = await res.body();
  // An ICO file: reserved 0, type 1, then its images.
  expect([...body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
});

test("the dashboard's brand is the site's name", async ({ browser }) => {
  const { context } = await signedInContext(browser, "brand", { trial: true });
  try {
    const page = await context.newPage();
    await gotoHydrated(page, "/dashboard");
    await expect(page.locator("#dashboard-sidebar").getByRole("link", { name: "AI Automation Apps", exact: true })).toBeVisible();
  } finally {
    await context.close();
  }
});

test("phone menu links are tap targets at least 44 px tall", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await gotoHydrated(page, "/how-it-works");
  await page.getByRole("button", { name: "Open menu" }).click();
  const links = page.locator("#mobile-menu").getByRole("link");
  await expect(links.first()).toBeVisible();
  const count = await links.count();
  expect(count).toBeGreaterThanOrEqual(5);
  for (let i = 0; i < count; i++) {
    const box = (await links.nth(i).boundingBox())!;
    expect(box.height, await links.nth(i).innerText()).toBeGreaterThanOrEqual(44);
  }
});

test("toasts: one solid style on the site and the dashboard, at the foot of the screen", async ({ browser, page }) => {
  // A marketing-side error toast: a wrong password on /auth.
  await gotoHydrated(page, "/auth");
  await page.getByLabel("Email").first().fill("nobody@example.com");
  await page.getByLabel("Password").first().fill("not-the-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  const failed = page.locator("[data-sonner-toast]", { hasText: "Sign In Failed" });
  await expect(failed).toBeVisible();
  const viewport = page.viewportSize()!;
  expect((await failed.boundingBox())!.y).toBeGreaterThan(viewport.height / 2);
  expect(await failed.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 255, 255)");

  // A dashboard success toast: the same look, green, also at the foot.
  const { context } = await signedInContext(browser, "toast", { trial: true });
  try {
    const dash = await context.newPage();
    await gotoHydrated(dash, "/dashboard/onboarding");
    await dash.getByRole("button", { name: "Mark complete: Connect your tools" }).click();
    const done = dash.locator("[data-sonner-toast]", { hasText: "Step Completed" });
    await expect(done).toBeVisible();
    expect((await done.boundingBox())!.y).toBeGreaterThan(dash.viewportSize()!.height / 2);
    expect(await done.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 255, 255)");
    expect(await done.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(255, 255, 255)");
  } finally {
    await context.close();
  }
});
