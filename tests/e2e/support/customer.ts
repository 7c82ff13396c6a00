import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { siteCookies, siteOrigin, uniqueEmail } from "./auth";
import { createVerifiedAccount } from "./loopback";

export const CUSTOMER_PASSWORD = "correct-horse-battery";

/** Starts the dashboard's free trial by its plain form post, so the trial overlay covers no /dashboard page. */
export async function startDashboardTrial(context: BrowserContext) {
  const res = await context.request.post("/dashboard", {
    headers: { Origin: siteOrigin() },
    form: { intent: "start-trial", plan: "starter" },
    maxRedirects: 0,
  });
  expect([200, 302, 303], await res.text()).toContain(res.status());
}

/**
 * A browser context of its own signed in as a new verified account (made through the auth API from
 * an address of its own; `fields`: its other sign-up fields), with the dashboard trial started when
 * `trial` is set.
 */
export async function signedInContext(
  browser: Browser,
  prefix: string,
  { fields = {}, trial = false }: { fields?: Record<string, unknown>; trial?: boolean } = {},
): Promise<{ context: BrowserContext; email: string }> {
  const email = uniqueEmail(prefix);
  const { cookie } = await createVerifiedAccount(email, CUSTOMER_PASSWORD, siteOrigin(), fields);
  const context = await browser.newContext();
  await context.addCookies(siteCookies(cookie));
  if (trial) await startDashboardTrial(context);
  return { context, email };
}

/** Fills the test checkout page's card form (expiry 12/34, CVC 123) with `card` and submits it. */
export async function payWith(page: Page, card: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^(Pay |Start free trial)/ }).click();
}
