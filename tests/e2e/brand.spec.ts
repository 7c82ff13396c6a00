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
