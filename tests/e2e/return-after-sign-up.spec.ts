import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { siteOrigin, uniqueEmail } from "./support/auth";
import { ipProxy } from "./support/ip-proxy";
import { gotoHydrated } from "./support/page";

/**
 * A signed-out visitor who presses a trial or buy button is sent to /auth with the page to come back
 * to; signing up there and opening the verification link brings them back to that page, signed in,
 * with their choices, where the same button now starts the purchase (a new tab with the checkout).
 */

/** A browser context whose requests come from a loopback address of its own (sign-up is limited per address). */
async function visitor(browser: Browser) {
  const proxy = await ipProxy(siteOrigin());
  const context = await browser.newContext({ proxy: proxy.proxy });
  const page = await context.newPage();
  return {
    page,
    close: async () => {
      await context.close();
      await proxy.close();
    },
  };
}

/** The verification link of the dev mailbox's email to `to`, read outside the visitor's proxied context. */
async function verificationLink(request: APIRequestContext, to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
      const mails = (await res.json()) as { subject: string; text: string }[];
      link = mails.find((m) => /verify/i.test(m.subject))?.text.match(/https?:\/\/\S+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** On /auth: the Sign Up tab, filled and sent as a person would, then the emailed link opened in the same tab. */
async function signUpAndVerify(page: Page, request: APIRequestContext) {
  const email = uniqueEmail("return");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  const form = page.getByRole("tabpanel", { name: "Sign Up" });
  await form.getByLabel("First name").fill("Rosa");
  await form.getByLabel("Last name").fill("Return");
  await form.getByLabel("Company name (optional)").fill("Return Trips Ltd");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
  await form.getByRole("button", { name: "Create Account" }).click();
  await expect(
    form.getByText("Account created successfully! Please check your email to verify your account.", { exact: true }),
  ).toBeVisible();
  await expect(form.getByText("brings you back to where you were, with your choices")).toBeVisible();
  await page.goto(await verificationLink(request, email));
  await page.waitForSelector("html[data-hydrated]");
  return email;
}

test("/packages: signing up from a plan's button comes back to the funnel's choices, and one click opens the checkout", async ({
  browser,
  request,
}) => {
  test.slow();
  const funnel = "/packages?industry=Insurance&goal=add_ai&timeline=standard&mode=monthly";
  const { page, close } = await visitor(browser);
  try {
    await gotoHydrated(page, funnel);
    const pro = page.getByRole("article", { name: "Professional", exact: true });
    await pro.getByRole("link", { name: /^Start 3-Day Free Trial/ }).click();
    await expect(page).toHaveURL(/\/auth\?/);
    expect(new URL(page.url()).searchParams.get("next")).toBe(funnel);

    await signUpAndVerify(page, request);
    expect(page.url()).toBe(`${siteOrigin()}${funnel}`);
    await expect(page.getByTestId("multiplier-badge")).toHaveText("20% DISCOUNT Applied!");
    await expect(page.getByRole("switch")).toBeChecked();

    const [checkout] = await Promise.all([
      page.context().waitForEvent("page"),
      pro.getByRole("button", { name: /^Start 3-Day Free Trial/ }).click(),
    ]);
    await checkout.waitForLoadState();
    await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_[A-Za-z0-9_-]+$/);
    await expect(checkout.getByTestId("checkout-item")).toContainText("Professional");
  } finally {
    await close();
  }
});

test("/apps: signing up from 'Start 3-Day Trial' comes back to the same industry, tab and view, and one click opens the checkout", async ({
  browser,
  request,
}) => {
  test.slow();
  const industry = "Healthcare & Life Sciences";
  const { page, close } = await visitor(browser);
  try {
    await gotoHydrated(page, `/apps?industry=${encodeURIComponent(industry)}&tab=express&view=list`);
    const first = page.getByTestId("app-card").first();
    const name = (await first.getByRole("heading").first().textContent())!.trim();
    await first.getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/auth\?/);

    await signUpAndVerify(page, request);
    const back = new URL(page.url());
    expect(back.pathname).toBe("/apps");
    expect(back.searchParams.get("industry")).toBe(industry);
    expect(back.searchParams.get("tab")).toBe("express");
    expect(back.searchParams.get("view")).toBe("list");
    await expect(page.getByRole("heading", { level: 2, name: `${industry} Solutions` })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Rush Delivery" })).toHaveAttribute("aria-selected", "true");

    const card = page.getByTestId("app-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
    const [checkout] = await Promise.all([
      page.context().waitForEvent("page"),
      card.getByRole("button", { name: "Start 3-Day Trial" }).click(),
    ]);
    await checkout.waitForLoadState();
    await expect(checkout).toHaveURL(/\/checkout\/local\/cs_local_[A-Za-z0-9_-]+$/);
    await expect(checkout.getByTestId("checkout-item")).toContainText(name);
  } finally {
    await close();
  }
});

test("/distributors: signing up from 'Become a Distributor' comes back to the form, filled from the account", async ({
  browser,
  request,
}) => {
  test.slow();
  const { page, close } = await visitor(browser);
  try {
    await gotoHydrated(page, "/distributors");
    await page.locator("#main").getByRole("link", { name: "Become a Distributor" }).first().click();
    await expect(page).toHaveURL(/\/auth\?next=/);

    const email = await signUpAndVerify(page, request);
    expect(new URL(page.url()).pathname).toBe("/distributors");
    const form = page.locator("#join form");
    await expect(form.getByLabel("Email")).toHaveValue(email);
    await expect(form.getByLabel("Full name")).toHaveValue("Rosa Return");
    await expect(form.getByLabel("Business name")).toHaveValue("Return Trips Ltd");

    const [checkout] = await Promise.all([
      page.context().waitForEvent("page"),
      form.getByRole("button", { name: "Continue to Payment" }).click(),
    ]);
    await checkout.waitForLoadState();
    await expect(checkout.getByTestId("checkout-item")).toHaveText("AI Distributor Program");
  } finally {
    await close();
  }
});
