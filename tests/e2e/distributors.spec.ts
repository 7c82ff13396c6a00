import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

/**
 * The distributor program after checkout (docs/decisions/0009): /distributor-success tells the
 * buyer what became of their own order (never 'Payment Confirmed' before it is paid), and a
 * distributor cannot buy the program a second time.
 */

function customer(browser: Browser) {
  return signedInContext(browser, "dist", {
    fields: { name: "Dana Reyes", firstName: "Dana", lastName: "Reyes", companyName: "Reyes Automation Co" },
  });
}

/** POST /api/checkout from the page, as the form does: the status and the answer's error. */
const checkoutFromPage = (page: Page, email: string) =>
  page.evaluate(
    async (body) => {
      const res = await fetch("/api/checkout", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { error?: string; url?: string } };
    },
    { kind: "distributor", email, fullName: "Dana Reyes", businessName: "Reyes Automation Co" },
  );

test("the success page follows the buyer's own order; a distributor cannot join twice", async ({ browser }) => {
  test.slow();
  const { context, email } = await customer(browser);
  const page = await context.newPage();
  await gotoHydrated(page, "/distributors");
  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    page.locator("#join").getByRole("button", { name: "Continue to Payment" }).click(),
  ]);
  await checkout.waitForLoadState();
  await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_/);
  const sessionId = new URL(checkout.url()).pathname.split("/").pop()!;
  const success = `/distributor-success?session_id=${sessionId}`;
  const main = page.locator("main");

  // Not paid yet: still being confirmed, nothing 'processed'.
  await gotoHydrated(page, success);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("We're confirming your payment");
  await expect(main.getByRole("heading", { level: 2 }).first()).toHaveText("1. Confirming Payment");
  await expect(main).not.toContainText("Payment Confirmed");
  await expect(main).not.toContainText("You are all set");
  await expect(main.getByRole("link", { name: "Refresh Status" })).toHaveAttribute("href", success);
  await expectNoAxeViolations(page);

  // Declined: said so, with a new attempt on /distributors.
  await checkout.waitForSelector("html[data-hydrated]");
  await payWith(checkout, "4000 0000 0000 0002");
  await expect(checkout.getByText("Your card was declined. Try another card.")).toBeVisible();
  await gotoHydrated(page, success);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Payment not completed");
  await expect(main).not.toContainText(/confirm/i);
  await expect(main.getByRole("link", { name: "Try Again" })).toHaveAttribute("href", "/distributors");
  await expectNoAxeViolations(page);

  // Paid: the spec's welcome and steps.
  await payWith(checkout, "4242 4242 4242 4242");
  await expect(checkout).toHaveURL(/\/distributor-success\?session_id=cs_local_/);
  await expect(checkout.getByRole("heading", { level: 1 })).toHaveText("Welcome to the AI Distributor Program!");
  await expect(checkout.getByRole("heading", { name: "Payment Confirmed" })).toBeVisible();
  await checkout.close();

  // A distributor sees their membership instead of the form, and the server refuses a second one.
  await gotoHydrated(page, "/distributors");
  const join = page.locator("#join");
  await expect(join.getByRole("heading", { name: "You're already a distributor" })).toBeVisible();
  await expect(join.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(join.locator("form")).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Become a Distributor" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  const again = await checkoutFromPage(page, email);
  const member = "You are already a member of the AI Distributor Program.";
  expect(again).toEqual({ status: 409, body: { code: "already_owned", message: member, error: member } });
  await context.close();
});
