import { expect, test } from "@playwright/test";
import { signUpVerified } from "./support/auth";

test("a verified sign-up reaches the dashboard; signed out, the dashboard redirects to /auth", async ({ page, browser }) => {
  const { email } = await signUpVerified(page, { firstName: "Ada" });
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(email)).toBeVisible();

  const anonymous = await browser.newContext();
  const other = await anonymous.newPage();
  await other.goto("/dashboard/billing");
  await expect(other).toHaveURL(/\/auth\?next=%2Fdashboard%2Fbilling$/);
  await anonymous.close();
});
