import { expect, test, type Page } from "@playwright/test";
import { ADDONS } from "../../app/catalogue/addons";
import { BILLING_PLANS, SCALING_TIERS } from "../../app/catalogue/plans";
import { formatDollars } from "../../app/catalogue/pricing";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { createVerifiedAccount } from "./support/loopback";

/** The hosted test checkout, opened in this tab: the order's item and the server's monthly price. */
async function expectCheckout(page: Page, item: string, cents: number) {
  await expect(page).toHaveURL(/\/checkout\/local\/cs_local_/);
  await expect(page.getByTestId("checkout-item")).toHaveText(item);
  await expect(page.getByTestId("checkout-amount")).toHaveText(`${formatDollars(cents)}/month`);
}

/**
 * ADR 0016: the dashboard's checkout buttons (billing plans, add-ons, scaling tiers) work before
 * hydration and without JavaScript: each is a POST form of ids to its page's action, priced on the
 * server, which redirects to the hosted checkout in the same tab.
 */
test.describe("dashboard checkout without JavaScript", () => {
  test("a plan, an add-on, a cart and a scaling tier post ids only and open the checkout at the server's price", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { cookie } = await createVerifiedAccount(uniqueEmail("dash-nojs"), "correct-horse-battery", siteOrigin());
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(siteCookies(cookie));
    // The trial, so the trial overlay does not cover the pages (as billing.spec.ts does).
    const trial = await context.request.post("/dashboard", {
      headers: { Origin: siteOrigin() },
      form: { intent: "start-trial", plan: "starter" },
      maxRedirects: 0,
    });
    expect([200, 302, 303]).toContain(trial.status());
    const page = await context.newPage();
    const posted: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posted.push(`${new URL(r.url()).pathname} ${r.postData()}`);
    });
    /** Every POST to `pathname` goes out with `rewrite(its body)` instead. */
    const tamper = (pathname: string, rewrite: (body: string) => string) =>
      page.route(
        (url) => url.pathname === pathname,
        (route) =>
          route.request().method() === "POST"
            ? route.continue({ postData: rewrite(route.request().postData() ?? "") })
            : route.continue(),
      );

    // Billing: Choose Pro.
    const pro = BILLING_PLANS.find((p) => p.type === "pro")!;
    await page.goto("/dashboard/billing");
    await page.getByTestId("plan-pro").getByRole("button", { name: "Choose Pro" }).click();
    await expectCheckout(page, "Pro Plan", pro.monthlyPrice);
    expect(posted).toEqual(["/dashboard/billing intent=checkout&planType=pro"]);

    // An amount slipped into the form changes nothing: Basic at Basic's price.
    const basic = BILLING_PLANS.find((p) => p.type === "basic")!;
    await tamper("/dashboard/billing", (body) => `${body}&amount=1`);
    await page.goto("/dashboard/billing");
    await page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }).click();
    await expectCheckout(page, "Basic Plan", basic.monthlyPrice);
    await page.unrouteAll();

    // Add-ons: Subscribe on one card, with an amount slipped in.
    const seo = ADDONS.find((a) => a.id === "seo-optimizer")!;
    posted.length = 0;
    await tamper("/dashboard/addons", (body) => `${body}&amount=1`);
    await page.goto("/dashboard/addons");
    const seoCard = page.getByTestId("addon-card").filter({ has: page.getByRole("heading", { name: seo.name, exact: true }) });
    await seoCard.getByRole("button", { name: "Subscribe" }).click();
    await expectCheckout(page, seo.name, seo.monthlyPrice);
    expect(posted).toEqual([`/dashboard/addons addonIds=${seo.id}`]);
    await page.unrouteAll();

    // A cart posts its ids as repeated fields (the cart itself needs JavaScript, so the body is written here).
    const three = ADDONS.filter((a) => a.isActive && a.id !== seo.id).slice(0, 3);
    await tamper("/dashboard/addons", () => `${three.map((a) => `addonIds=${a.id}`).join("&")}&amount=1`);
    await page.goto("/dashboard/addons");
    await seoCard.getByRole("button", { name: "Subscribe" }).click();
    await expectCheckout(
      page,
      `3 add-ons: ${three.map((a) => a.name).join(", ")}`,
      three.reduce((sum, a) => sum + a.monthlyPrice, 0),
    );
    await page.unrouteAll();

    // A cart the server refuses (an add-on twice) renders the page with the text under the cart's button.
    await tamper("/dashboard/addons", () => `addonIds=${seo.id}&addonIds=${seo.id}&addonIds=${three[0]!.id}`);
    await page.goto("/dashboard/addons?q=seo");
    await seoCard.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByTestId("cart").getByRole("alert")).toHaveText("Failed to start checkout process");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/dashboard/addons?q=seo");
    await page.unrouteAll();

    // Scaling: the 500K tier's button, with a price slipped in.
    posted.length = 0;
    await tamper("/dashboard/scaling", (body) => `${body}&price=1`);
    await page.goto("/dashboard/scaling");
    await page.getByTestId("tier-3").getByRole("button", { name: "Upgrade" }).click();
    await expectCheckout(page, "Scale 500K", SCALING_TIERS[3]!.monthlyPrice);
    expect(posted).toEqual(["/dashboard/scaling tierIndex=3"]);
    await page.unrouteAll();

    // A session that ends between loading the page and posting: Sign In says why, as with JavaScript.
    await page.goto("/dashboard/scaling");
    await context.clearCookies();
    await page.getByTestId("tier-1").getByRole("button", { name: "Upgrade" }).click();
    await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%2Fscaling/);
    await expect(page.getByText("Please sign in to upgrade your plan")).toBeVisible();
    await context.close();
  });
});
