import { expect, test, type Page } from "@playwright/test";
import { signUpVerified, siteOrigin } from "./support/auth";
import { gotoHydrated } from "./support/page";

/**
 * The support, profile and onboarding forms with the keyboard: where focus goes after an answer, and
 * how a refusal reads (the trial gate holds on the server too, ADR 0025).
 */

/** A verified, signed-in customer; with `trial`, its trial has started (no overlay). */
async function customer(page: Page, trial: boolean) {
  await signUpVerified(page);
  if (!trial) return;
  const res = await page.request.post("/dashboard", {
    headers: { Origin: siteOrigin() },
    form: { intent: "start-trial", plan: "starter" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
}

test("support: a refused ticket focuses the first invalid field; a sent one leaves focus on the button", async ({ page }) => {
  await customer(page, true);
  await gotoHydrated(page, "/dashboard/support");
  await page.getByLabel("Subject").fill("Hi");
  await page.getByLabel("Message").fill("My invoice shows the wrong company name.");
  const submit = page.getByRole("button", { name: "Submit ticket" });
  await submit.focus();
  await page.keyboard.press("Enter");
  const subject = page.getByLabel("Subject");
  await expect(page.getByText("Subject must be at least 3 characters")).toBeVisible();
  await expect(subject).toBeFocused();
  await expect(subject).toHaveAttribute("aria-describedby", "subject-error");

  await page.keyboard.press("Control+A");
  await page.keyboard.type("Wrong company on invoice");
  await submit.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Ticket submitted.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit ticket" })).toBeFocused();
});

test("support and onboarding: without a started trial the post is refused, said in the form", async ({ page }) => {
  await customer(page, false);
  // The free preview's countdown stays at 15 s: the page under it is usable, as in its first seconds.
  await page.clock.install();
  await gotoHydrated(page, "/dashboard/support");
  await page.getByLabel("Subject").fill("Before my trial");
  await page.getByLabel("Message").fill("Can I ask before starting the trial?");
  await page.getByRole("button", { name: "Submit ticket" }).focus();
  await page.keyboard.press("Enter");
  const alert = page.getByRole("alert").filter({ hasText: "Start your free trial to access all features" });
  await expect(alert).toBeVisible();
  await expect(alert).toBeFocused();
  await expect(page.getByLabel("Subject")).toHaveValue("Before my trial");
  await expect(page.getByLabel("Message")).toHaveValue("Can I ask before starting the trial?");
  await expect(page.getByText("No tickets yet")).toBeVisible();

  await gotoHydrated(page, "/dashboard/onboarding");
  const button = page.getByRole("button", { name: "Mark complete: Connect your tools" });
  await button.focus();
  await page.keyboard.press("Enter");
  const row = page.getByTestId("step-connect-tools");
  await expect(row.getByRole("alert")).toHaveText("Start your free trial to access all features");
  await expect(button).toBeFocused();
  await expect(row).not.toContainText("Completed");
  await expect(page.getByText("1 of 8 steps completed")).toBeVisible();
});

test("profile: a password mismatch focuses the confirmation field", async ({ page }) => {
  await customer(page, true);
  await gotoHydrated(page, "/dashboard/profile");
  await page.getByLabel("Current password").fill("correct-horse-battery");
  await page.getByLabel("New password", { exact: true }).fill("a-new-password-1");
  await page.getByLabel("Confirm new password").fill("a-new-password-2");
  await page.getByRole("button", { name: "Change password" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await expect(page.getByLabel("Confirm new password")).toBeFocused();
});

test("onboarding: 'Mark complete' hands focus to the next open step, or to its own heading at the end", async ({ page }) => {
  await customer(page, true);
  await gotoHydrated(page, "/dashboard/onboarding");
  await page.getByRole("button", { name: "Mark complete: Schedule your onboarding call" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Mark complete: Complete the business questionnaire" })).toBeFocused();
  await expect(page.getByTestId("step-schedule-call")).toContainText("Completed");

  await page.getByRole("button", { name: "Mark complete: Optimise with your success manager" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("step-optimise").getByRole("heading")).toBeFocused();
  await expect(page.getByText("3 of 8 steps completed")).toBeVisible();
});

test("analytics: an opened ticket is charted and tabled as 'Ticket opened'", async ({ page }) => {
  await customer(page, true);
  await gotoHydrated(page, "/dashboard/support");
  await page.getByLabel("Subject").fill("Chart this ticket");
  await page.getByLabel("Message").fill("Does my ticket show on the analytics page?");
  await page.getByRole("button", { name: "Submit ticket" }).click();
  await expect(page.getByText("Ticket submitted.")).toBeVisible();

  await gotoHydrated(page, "/dashboard/analytics");
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader", { name: "Ticket opened" })).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  const row = table.getByRole("row", { name: new RegExp(today) });
  const headers = await table.getByRole("columnheader").allTextContents();
  const cells = await row.getByRole("cell").allTextContents();
  // Cells follow the row header (the date): column i + 1 of the headers.
  expect(cells[headers.indexOf("Ticket opened") - 1]).toBe("1");
});
