import { expect, test } from "@playwright/test";
import { signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

/** A step marked complete by mistake can be marked not done again, and stays so after a reload. */
test("onboarding: a completed step is marked not done again, with the keyboard, and the progress follows", async ({
  browser,
}) => {
  const { context } = await signedInContext(browser, "undo", { trial: true });
  try {
    const page = await context.newPage();
    await gotoHydrated(page, "/dashboard/onboarding");
    const step = page.getByTestId("step-connect-tools");
    await step.getByRole("button", { name: "Mark complete: Connect your tools" }).click();
    await expect(page.getByText("2 of 8 steps completed")).toBeVisible();
    await expect(step).toContainText("Completed");

    const undo = step.getByRole("button", { name: "Mark not done: Connect your tools" });
    await undo.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText("Step marked as not done")).toBeVisible();
    await expect(page.getByText("1 of 8 steps completed")).toBeVisible();
    await expect(step).not.toContainText("Completed");
    // The same button, now 'Mark complete', keeps the keyboard's focus.
    await expect(step.getByRole("button", { name: "Mark complete: Connect your tools" })).toBeFocused();
    await expect(page.getByTestId("onboarding-progress")).toHaveText("13%");

    await gotoHydrated(page, "/dashboard/onboarding");
    await expect(page.getByText("1 of 8 steps completed")).toBeVisible();
    await expect(step.getByRole("button", { name: "Mark complete: Connect your tools" })).toBeVisible();
    // The account itself stays a completed step: it has nothing to undo.
    await expect(page.getByTestId("step-create-account").getByRole("button")).toHaveCount(0);
  } finally {
    await context.close();
  }
});
