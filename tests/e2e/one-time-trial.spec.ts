import { expect, test } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { formatDollars, quoteApp } from "../../app/catalogue/pricing";
import { expectNoAxeViolations } from "./support/axe";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

const app = allApps().find((a) => a.id === 7)!;
const ZONE = "America/Los_Angeles";

/** How the page should write `iso` in the customer's zone (components/checkout/LocalDateTime.tsx). */
const inZone = (iso: string) =>
  new Intl.DateTimeFormat("en-US", {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: ZONE,
  }).format(new Date(iso));

test.use({ timezoneId: ZONE });

test("a one-time app's 3-day trial: $0 due today, billing shows the charge date and the trial can be canceled", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context } = await signedInContext(browser, "onetrial", { trial: true });
  const page = await context.newPage();
  const professional = quoteApp(app, "standard");
  const amount = formatDollars(professional.amount);

  await gotoHydrated(page, `/apps?q=${encodeURIComponent(app.name)}`);
  await page.getByRole("tab", { name: "Professional" }).click();
  const card = page.getByRole("article", { name: app.name, exact: true });
  await expect(card.getByTestId("app-price")).toHaveText(professional.display);
  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    card.getByRole("button", { name: "Start 3-Day Trial" }).click(),
  ]);
  await checkout.waitForURL(/\/checkout\/local\/cs_local_/);
  await checkout.waitForSelector("html[data-hydrated]");

  // The checkout: nothing due today, the amount and the date (in the customer's zone) of the charge.
  const before = Date.now();
  await expect(checkout.getByTestId("checkout-due-today")).toHaveText("$0");
  await expect(checkout.getByTestId("checkout-charge-amount")).toHaveText(amount);
  const shownAt = await checkout.getByTestId("checkout-charge-date").getAttribute("datetime");
  expect(Math.abs(Date.parse(shownAt!) - (before + 3 * 86_400_000))).toBeLessThan(120_000);
  await expect(checkout.getByTestId("checkout-charge-date")).toHaveText(inZone(shownAt!));
  await expect(checkout.getByTestId("checkout-charge-date")).toContainText(/P[SD]T/);
  await expectNoAxeViolations(checkout);
  await payWith(checkout, "4242 4242 4242 4242");
  await expect(checkout).toHaveURL(/\/payment-success\?session_id=cs_local_/);
  await expect(checkout.getByRole("heading", { name: "Your free trial has started!" })).toBeVisible();
  await expect(checkout.getByTestId("order-status")).toHaveText("Free trial started");
  await expect(checkout.getByTestId("order-due-today")).toHaveText(`$0 (3-day free trial, then ${amount})`);

  // Not owned during the trial.
  await gotoHydrated(page, "/dashboard/automation");
  await expect(page.locator("main")).not.toContainText(app.name);

  // Billing: the trial, its charge and a Cancel with a confirmation.
  await gotoHydrated(page, "/dashboard/billing");
  const trial = page.getByTestId("running-trial");
  await expect(trial).toHaveCount(1);
  await expect(trial).toContainText(app.name);
  await expect(trial.getByTestId("trial-charge-amount")).toHaveText(amount);
  const chargeAt = await trial.getByTestId("trial-charge-date").getAttribute("datetime");
  expect(Math.abs(Date.parse(chargeAt!) - Date.parse(shownAt!))).toBeLessThan(120_000);
  await expect(trial.getByTestId("trial-charge-date")).toHaveText(inZone(chargeAt!));
  await expect(page.getByTestId("billing-history").locator("tbody tr").first()).toContainText("Free trial");
  await expectNoAxeViolations(page);

  await trial.getByRole("button", { name: "Cancel trial" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Cancel your ${app.name} trial?`);
  await dialog.getByRole("button", { name: "Keep trial" }).click();
  await expect(dialog).toBeHidden();
  await expect(trial).toHaveCount(1);

  await trial.getByRole("button", { name: "Cancel trial" }).click();
  await dialog.getByRole("button", { name: "Yes, cancel trial" }).click();
  await expect(page.getByTestId("trial-cancel-result")).toHaveText(
    `Your ${app.name} trial is canceled. Nothing was charged, and the hold on your card is released.`,
  );
  await expect(page.getByTestId("running-trial")).toHaveCount(0);
  await expect(page.getByTestId("billing-history").locator("tbody tr").first()).toContainText("Trial canceled, not charged");

  // Still canceled after a reload: the server holds it.
  await gotoHydrated(page, "/dashboard/billing");
  await expect(page.getByTestId("running-trial")).toHaveCount(0);
  await expect(page.getByTestId("billing-history").locator("tbody tr").first()).toContainText("Trial canceled, not charged");
  await context.close();
});
