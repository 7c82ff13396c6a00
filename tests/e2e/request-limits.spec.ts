import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { CUSTOMER_PASSWORD, startDashboardTrial } from "./support/customer";
import { createVerifiedAccount, freshIp, raw } from "./support/loopback";
import { gotoHydrated } from "./support/page";

const app = allApps().find((a) => a.id === 7)!;
const TOO_MANY = /^Too many requests\. Please try again in \d+ (seconds?|minutes?)\.$/;

/**
 * A customer whose account has used up a limit (from an address of its own, so the limits of
 * 127.0.0.1, where every browser of the run comes from, are not touched), then seen in a browser.
 */
async function limitedCustomer(browser: Browser, prefix: string) {
  const { cookie } = await createVerifiedAccount(uniqueEmail(prefix), CUSTOMER_PASSWORD, siteOrigin());
  const context = await browser.newContext();
  await context.addCookies(siteCookies(cookie));
  await startDashboardTrial(context);
  return { cookie, context };
}

/** POSTs from one fresh address with the customer's cookie, each expected to be accepted. */
async function postMany(times: number, request: { path: string; cookie: string; body: unknown; contentType?: string }) {
  const ip = freshIp();
  for (let i = 0; i < times; i++) {
    const res = await raw({
      method: "POST",
      path: request.path,
      ip,
      headers: {
        cookie: request.cookie,
        origin: siteOrigin(),
        ...(request.contentType ? { "content-type": request.contentType } : {}),
      },
      body: request.body,
    });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
  }
}

const checkoutRefused = (context: BrowserContext) =>
  context.waitForEvent("response", (r) => r.url().endsWith("/api/checkout") && r.status() === 429);

test("past the account's checkout limit, /apps, /packages, /distributors and the dashboard show the server's message", async ({
  browser,
}) => {
  test.slow();
  const { cookie, context } = await limitedCustomer(browser, "limits-checkout");
  await postMany(10, { path: "/api/checkout", cookie, body: { kind: "app", appId: app.id, tab: "base" } });
  const page = await context.newPage();

  // /apps: the 'Checkout Error' notice, with the wait instead of the generic text.
  await gotoHydrated(page, `/apps?q=${encodeURIComponent(app.name)}`);
  let refused = checkoutRefused(context);
  await page.getByRole("article", { name: app.name, exact: true }).getByRole("button", { name: "Start 3-Day Trial" }).click();
  expect((await refused).headers()["retry-after"]).toMatch(/^\d+$/);
  await expect(page.getByText("Checkout Error", { exact: true })).toBeVisible();
  await expect(page.getByText(TOO_MANY)).toBeVisible();

  // /packages: under the plan's buttons, where its other failures show.
  await gotoHydrated(page, "/packages?industry=Insurance&goal=add_ai&timeline=standard");
  const professional = page.getByRole("article", { name: "Professional", exact: true });
  refused = checkoutRefused(context);
  await professional.getByRole("button", { name: /^Rush \(24-48hrs\) \+50%/ }).click();
  await refused;
  await expect(professional.getByTestId("checkout-error")).toHaveText(TOO_MANY);

  // /distributors: the form's alert.
  await gotoHydrated(page, "/distributors");
  const join = page.locator("#join");
  await join.getByLabel("Full name").fill("Dana Reyes");
  await join.getByLabel("Business name").fill("Reyes Automation Co");
  refused = checkoutRefused(context);
  await join.getByRole("button", { name: "Continue to Payment" }).click();
  await refused;
  await expect(join.getByRole("alert")).toHaveText(TOO_MANY);

  // The dashboard's billing plans: the failure toast, with the wait as its description.
  await gotoHydrated(page, "/dashboard/billing");
  refused = checkoutRefused(context);
  await page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }).click();
  await refused;
  await expect(page.getByText("Failed to start checkout process")).toBeVisible();
  await expect(page.getByText(TOO_MANY)).toBeVisible();
  await context.close();
});

test("past the account's ticket limit, the support form says so and keeps what was typed", async ({ browser }) => {
  const { cookie, context } = await limitedCustomer(browser, "limits-ticket");
  const ticket = { subject: "Cannot connect CRM", category: "Technical", message: "The CRM link fails every time." };
  await postMany(5, {
    path: "/dashboard/support",
    cookie,
    contentType: "application/x-www-form-urlencoded",
    body: new URLSearchParams(ticket).toString(),
  });
  const page = await context.newPage();
  await gotoHydrated(page, "/dashboard/support");
  await page.getByLabel("Subject").fill("One more question");
  await page.getByLabel("Message").fill("Is there a limit on tickets?");
  await page.getByRole("button", { name: "Submit ticket" }).click();
  const alert = page.getByRole("alert").filter({ hasText: TOO_MANY });
  await expect(alert).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("One more question");
  await expect(page.getByLabel("Message")).toHaveValue("Is there a limit on tickets?");
  await expect(page.getByText("Ticket submitted.")).toHaveCount(0);
  await context.close();
});
