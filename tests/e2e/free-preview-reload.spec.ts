import { expect, test } from "@playwright/test";
import { signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

/** The 15-second free preview counts from the account's first dashboard view, kept by the server. */
test("a reload does not restart the free preview: it goes on from the first view, then the chooser stays", async ({
  browser,
}) => {
  test.slow();
  const { context } = await signedInContext(browser, "preview");
  try {
    const page = await context.newPage();
    const counted = page.waitForResponse((r) => r.url().endsWith("/api/dashboard/visit") && r.ok());
    await gotoHydrated(page, "/dashboard");
    await counted;
    const preview = page.getByRole("region", { name: "Free preview" });
    await expect(preview).toContainText("Free Preview: 15s remaining");
    await expect(preview).toContainText(/Free Preview: (1[0-2]|[1-9])s remaining/, { timeout: 20_000 });

    // Reloaded (and the server's HTML alike): the seconds already used stay used.
    const html = await (await context.request.get("/dashboard")).text();
    expect(html).not.toContain("Free Preview: <!-- -->15");
    expect(html).not.toMatch(/Free Preview: (<!-- -->)?1[3-5](<!-- -->)?s remaining/);
    await gotoHydrated(page, "/dashboard");
    await expect(preview).toContainText(/Free Preview: (1[0-2]|[0-9])s remaining/);
    await expect(page.getByRole("dialog", { name: /choose your plan/i })).toBeVisible({ timeout: 20_000 });

    // Once it has run out, a reload opens the plan chooser at once, with the trial still to start.
    await gotoHydrated(page, "/dashboard");
    await expect(page.getByRole("dialog", { name: /choose your plan/i })).toBeVisible();
    await expect(preview).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Start 7-Day Free Trial/ })).toBeVisible();
  } finally {
    await context.close();
  }
});
