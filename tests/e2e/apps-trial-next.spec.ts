import { expect, test } from "@playwright/test";

test.describe("/apps without JavaScript, signed out", () => {
  test.use({ javaScriptEnabled: false });

  test("'Start 3-Day Trial' brings Sign In back to the same search, industry, tab and dialog", async ({ page }) => {
    const results = "/apps?q=scheduler&industry=Healthcare+%26+Life+Sciences&tab=express";
    await page.goto(results);
    await page.getByTestId("app-card").first().getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/auth\?/);
    const next = new URL(page.url()).searchParams.get("next");
    const back = new URL(next!, "http://site.test");
    expect(back.pathname).toBe("/apps");
    expect(back.searchParams.get("q")).toBe("scheduler");
    expect(back.searchParams.get("industry")).toBe("Healthcare & Life Sciences");
    expect(back.searchParams.get("tab")).toBe("express");
    expect(next!.startsWith("/apps?")).toBe(true);
    await expect(page.getByRole("tabpanel", { name: "Sign In" }).locator('input[name="next"]').first()).toHaveValue(next!);
  });
});
