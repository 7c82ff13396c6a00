import { expect, test, type Page } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { APP_PRICING_TABS, APP_TAB_INFO, quoteApp } from "../../app/catalogue/pricing";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { createVerifiedAccount } from "./support/loopback";
import { gotoHydrated } from "./support/page";

const catalogue = allApps();
const first = catalogue[0]!;

/** Every JSON-LD object of the page, parsed (a parse error fails the test). */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((t) => JSON.parse(t) as Record<string, unknown>);
}

/** Console errors (a CSP refusal is one) collected from here on. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return errors;
}

const metaContent = (page: Page, selector: string) => page.locator(`head ${selector}`).getAttribute("content");

test.describe("app pages", () => {
  test("a card's link opens the app's page: four prices, every feature, reviews, related apps", async ({ page }) => {
    const errors = consoleErrors(page);
    await gotoHydrated(page, "/apps");
    const card = page.getByRole("article", { name: first.name, exact: true });
    await card.getByRole("link", { name: first.name, exact: true }).click();
    await expect(page).toHaveURL(`/apps/${first.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(first.name);
    await expect(page.getByText(first.description, { exact: true })).toBeVisible();

    const options = page.getByTestId("app-price-option");
    await expect(options).toHaveCount(4);
    for (const [i, tab] of APP_PRICING_TABS.entries()) {
      const quote = quoteApp(first, tab);
      const option = options.nth(i);
      await expect(option.getByRole("heading")).toHaveText(APP_TAB_INFO[tab].label);
      await expect(option.getByTestId("app-price")).toHaveText(quote.display);
      await expect(option.getByTestId("app-delivery")).toHaveText(quote.delivery);
      await expect(option.getByRole("button", { name: "Start 3-Day Trial" })).toBeEnabled();
    }
    await expect(page.getByTestId("app-features").getByRole("listitem")).toHaveText(first.features);
    await expect(page.getByRole("list", { name: "Latest reviews" }).getByRole("listitem")).not.toHaveCount(0);
    await expect(page.getByRole("link", { name: /BOOK DEMO/ }).last()).toHaveAttribute("target", "_blank");

    // Related: other apps of the same industry, each a link to its own page.
    const related = page.getByTestId("related-apps").getByRole("link");
    await expect(related).not.toHaveCount(0);
    const relatedName = await related.first().textContent();
    const other = catalogue.find((a) => a.name === relatedName)!;
    expect(other.industry).toBe(first.industry);
    expect(other.id).not.toBe(first.id);
    await related.first().click();
    await expect(page).toHaveURL(`/apps/${other.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(other.name);
    await expect(page.getByTestId("app-price").first()).toHaveText(quoteApp(other, "base").display);
    expect(errors).toEqual([]);
  });

  test("the reviews dialog links to the app's page", async ({ page }) => {
    await gotoHydrated(page, `/apps?reviews=${first.id}`);
    const dialog = page.getByRole("dialog", { name: `Customer Reviews for ${first.name}` });
    await dialog.getByRole("link", { name: `See features and prices of ${first.name}` }).click();
    await expect(page).toHaveURL(`/apps/${first.slug}`);
  });

  test("the head names the page: title, canonical, Open Graph with an image, the large Twitter card", async ({
    page,
    request,
  }) => {
    const app = catalogue[120]!;
    await page.goto(`/apps/${app.slug}`);
    const origin = siteOrigin();
    await expect(page).toHaveTitle(`${app.name}: ${app.industry} AI App | AI Automation Apps`);
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", `${origin}/apps/${app.slug}`);
    expect(await metaContent(page, 'meta[property="og:url"]')).toBe(`${origin}/apps/${app.slug}`);
    expect(await metaContent(page, 'meta[name="twitter:card"]')).toBe("summary_large_image");
    const image = await metaContent(page, 'meta[property="og:image"]');
    expect(image).toBe(`${origin}/og/apps.png`);
    const png = await request.get(image!);
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
    // A PNG's IHDR holds its width and height: the 1200x630 of a large card.
    const body = await png.body();
    expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([1200, 630]);

    for (const path of ["/", "/apps", "/packages", "/distributors", "/earn"]) {
      await page.goto(path);
      expect(await metaContent(page, 'meta[name="twitter:card"]'), path).toBe("summary_large_image");
      expect(await metaContent(page, 'meta[property="og:image"]'), path).toMatch(new RegExp(`^${origin}/og/\\w+\\.png$`));
    }
  });

  test("an unknown slug is the 404 page with a 404 status", async ({ page }) => {
    for (const slug of ["no-such-app", "MediScheduler-AI", "%3Cscript%3E"]) {
      const response = await page.goto(`/apps/${slug}`);
      expect(response?.status(), slug).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page not found");
      await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", "noindex");
    }
  });

  test("the sitemap lists every app page beside the site's pages", async ({ request }) => {
    const xml = await (await request.get("/sitemap.xml")).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(locs.filter((p) => p.startsWith("/apps/"))).toEqual(catalogue.map((a) => `/apps/${a.slug}`));
    for (const p of ["/", "/apps", "/packages", "/distributors", "/earn"]) expect(locs).toContain(p);
  });

  test("has no axe violations and fits a 375 px wide phone", async ({ page }) => {
    await gotoHydrated(page, `/apps/${first.slug}`);
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expect(page.getByTestId("app-price-option").first().getByRole("button", { name: "Start 3-Day Trial" })).toBeVisible();
  });
});

test.describe("structured data", () => {
  test("an app page is a Product with the four real prices and no rating", async ({ page }) => {
    const errors = consoleErrors(page);
    const app = catalogue[60]!;
    await gotoHydrated(page, `/apps/${app.slug}`);
    const [product, ...rest] = await jsonLd(page);
    expect(rest).toEqual([]);
    expect(product).toMatchObject({ "@context": "https://schema.org", "@type": "Product", name: app.name });
    const offers = product!.offers as { name: string; price: string; priceCurrency: string }[];
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency])).toEqual(
      APP_PRICING_TABS.map((tab) => [APP_TAB_INFO[tab].label, (quoteApp(app, tab).amount / 100).toFixed(2), "USD"]),
    );
    expect(JSON.stringify(product)).not.toMatch(/Rating|"Review"/);
    // Served from the page cache the second time (its CSP names inline scripts by hash): still no error.
    await gotoHydrated(page, `/apps/${app.slug}`);
    expect(await jsonLd(page)).toEqual([product]);
    expect(errors).toEqual([]);
  });

  test("home is the Organization, packages are Products at the page's prices, distributors a FAQPage", async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto("/");
    expect(await jsonLd(page)).toEqual([
      expect.objectContaining({ "@type": "Organization", name: "AI Automation Apps", url: `${siteOrigin()}/` }),
    ]);

    await gotoHydrated(page, "/packages");
    const packages = await jsonLd(page);
    expect(packages.length).toBeGreaterThanOrEqual(3);
    for (const product of packages) {
      expect(product["@type"]).toBe("Product");
      const card = page.getByRole("heading", { name: String(product.name), exact: true });
      await expect(card).toBeVisible();
    }
    const oneTime = (packages[0]!.offers as { name: string; price: string }[]).find((o) => o.name === "One-time")!;
    const shown = Number(oneTime.price).toLocaleString("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
    await expect(page.getByText(shown, { exact: true }).first()).toBeVisible();

    await gotoHydrated(page, "/distributors");
    const [faq] = await jsonLd(page);
    expect(faq!["@type"]).toBe("FAQPage");
    const questions = faq!.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
    expect(questions.length).toBeGreaterThan(2);
    for (const q of questions) {
      const item = page.locator("details", { has: page.getByText(q.name, { exact: true }) });
      await item.locator("summary").click();
      await expect(item.getByText(q.acceptedAnswer.text, { exact: true })).toBeVisible();
    }
    expect(errors).toEqual([]);
  });
});

test.describe("Start 3-Day Trial on an app page", () => {
  test("signed out without JavaScript: Sign In, which will come back to the page", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/apps/${first.slug}`);
    await page.getByTestId("app-price-option").nth(2).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/auth\?/);
    expect(new URL(page.url()).searchParams.get("next")).toBe(`/apps/${first.slug}`);
    await context.close();
  });

  test("signed in without JavaScript: the chosen price's checkout, priced by the server", async ({ browser }) => {
    const app = catalogue[9]!;
    const { cookie } = await createVerifiedAccount(uniqueEmail("app-page"), "correct-horse-battery", siteOrigin());
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(siteCookies(cookie));
    const page = await context.newPage();
    const posted: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posted.push(`${new URL(r.url()).pathname} ${r.postData()}`);
    });
    await page.goto(`/apps/${app.slug}`);
    await page.getByTestId("app-price-option").nth(1).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/checkout\/local\/cs_local_/);
    await expect(page.getByTestId("checkout-item")).toHaveText(app.name);
    await expect(page.getByTestId("checkout-tab")).toHaveText("Professional");
    await expect(page.getByTestId("checkout-amount")).toHaveText(quoteApp(app, "standard").display);
    expect(posted).toEqual([`/apps/${app.slug} appId=${app.id}&tab=standard`]);
    await context.close();
  });

  test("signed out with JavaScript: the sign-in notice, then Sign In back to the page", async ({ page }) => {
    await gotoHydrated(page, `/apps/${first.slug}`);
    await page.getByTestId("app-price-option").nth(3).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page.getByText("Authentication Required")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/auth\\?reason=trial&next=%2Fapps%2F${first.slug}$`));
  });
});
