import { expect, test, type Page } from "@playwright/test";
import { allApps, type CatalogueApp } from "../../app/catalogue/apps";
import { APP_PRICING_TABS, APP_TAB_INFO, quoteApp } from "../../app/catalogue/pricing";
import { initialReviews } from "../../app/catalogue/reviews";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { createVerifiedAccount } from "./support/loopback";
import { gotoHydrated } from "./support/page";

const catalogue = allApps();
const byName = (name: string) => catalogue.find((a) => a.name === name)!;
/** Spec section 5, computed from the catalogue: what the page must list for a search. */
const matching = (q: string, industry = "All") =>
  catalogue.filter(
    (a) =>
      (industry === "All" || a.industry === industry) &&
      [a.name, a.description, a.industry].some((f) => f.toLowerCase().includes(q.toLowerCase())),
  );
const countText = (n: number) => (n === 1 ? "1 solution available" : `${n} solutions available`);

const search = (page: Page) => page.getByRole("combobox", { name: "Search AI apps" });
const industrySelect = (page: Page) => page.getByLabel("Industry", { exact: true });
const card = (page: Page, app: CatalogueApp) => page.getByRole("article", { name: app.name, exact: true });
const count = (page: Page) => page.getByTestId("solutions-count");
/** Requests to the /apps page itself, whatever the query. */
const appsPage = (url: URL) => url.pathname === "/apps";

test.describe("apps page with JavaScript", () => {
  test("renders the header, controls and the first cards of all 181 apps", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    await expect(page.getByRole("heading", { level: 1, name: "Ready Made Apps" })).toBeVisible();
    await expect(page.getByText("Choose from 181+ pre-built AI applications across 22 industries")).toBeVisible();
    await expect(page.getByText("Live Demo Available")).toBeVisible();
    await expect(search(page)).toHaveAttribute("placeholder", "Search for AI apps...");
    await expect(industrySelect(page).locator("option")).toHaveCount(22);
    await expect(industrySelect(page).locator("option").first()).toHaveText("All Industries");
    await expect(page.getByRole("heading", { level: 2, name: "All AI Solutions" })).toBeVisible();
    await expect(count(page)).toHaveText("181 solutions available");
    await expect(page.getByTestId("app-card")).toHaveCount(12);

    const first = catalogue[0]!;
    const c = card(page, first);
    await expect(c.getByText(first.industry, { exact: true }).first()).toBeVisible();
    await expect(c.getByText("Popular")).toBeVisible();
    await expect(c.getByText(first.description)).toBeVisible();
    await expect(c.getByText(`(${first.reviews} reviews)`)).toBeVisible();
    await expect(c.getByText(first.features[0]!).first()).toBeVisible();
    await expect(c.getByText("+2 more")).toBeVisible();
    await expect(c.getByText("3-day free trial included")).toBeVisible();

    await page.getByRole("link", { name: "Show more solutions" }).click();
    await expect(page.getByTestId("app-card")).toHaveCount(24);
    await expect(page).toHaveURL(/\/apps\?show=24$/);
    await expect(page.getByText("Showing 24 of 181")).toBeVisible();

    const footer = page.getByRole("region", { name: "Not sure which app fits?" });
    await expect(footer.getByRole("link", { name: /^BOOK DEMO/ })).toHaveAttribute("target", "_blank");
    await expect(footer.getByRole("link", { name: "How It Works" })).toHaveAttribute("href", "/how-it-works");
  });

  test("search filters the cards and updates the URL", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    await search(page).fill("MediScheduler");
    await expect(count(page)).toHaveText("1 solution available");
    await expect(page.getByTestId("app-card")).toHaveCount(1);
    await expect(card(page, byName("MediScheduler AI"))).toBeVisible();
    await expect(page).toHaveURL(/\/apps\?q=MediScheduler$/);

    // Descriptions and industry names are searched too.
    await search(page).fill("waitlist");
    await expect(count(page)).toHaveText(countText(matching("waitlist").length));
    await search(page).fill("telecommunications");
    await expect(count(page)).toHaveText(countText(matching("telecommunications").length));
    await expect(page).toHaveURL(/q=telecommunications/);
  });

  test("an industry suggestion sets the filter, clears the search and retitles the list", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    await search(page).pressSequentially("health");
    const listbox = page.getByRole("listbox", { name: "Industry suggestions" });
    await expect(listbox).toBeVisible();
    await expect(search(page)).toHaveAttribute("aria-expanded", "true");
    await listbox.getByRole("option", { name: "Healthcare & Life Sciences" }).click();

    await expect(industrySelect(page)).toHaveValue("Healthcare & Life Sciences");
    await expect(search(page)).toHaveValue("");
    await expect(listbox).toBeHidden();
    const industryHeading = page.getByRole("heading", { level: 2, name: "Healthcare & Life Sciences Solutions" });
    await expect(industryHeading).toBeVisible();
    await expect(count(page)).toHaveText(countText(matching("", "Healthcare & Life Sciences").length));
    await expect(page).toHaveURL(/\/apps\?industry=Healthcare\+%26\+Life\+Sciences$/);
    await expect(industryHeading).toBeInViewport();

    // The keyboard works too: arrow to a suggestion, Enter picks it; Escape closes the list.
    await search(page).pressSequentially("fin");
    await search(page).press("ArrowDown");
    await expect(listbox.getByRole("option", { name: "Financial Services" })).toHaveAttribute("aria-selected", "true");
    await search(page).press("Enter");
    await expect(industrySelect(page)).toHaveValue("Financial Services");
    await search(page).pressSequentially("zz-no-industry");
    await expect(listbox).toBeHidden();
    await search(page).fill("ser");
    await expect(listbox).toBeVisible();
    await search(page).press("Escape");
    await expect(listbox).toBeHidden();
  });

  test("on a slow phone, a key pressed while the search goes to the URL acts on the typed text", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    // A phone's CPU: the router's transition to the new URL renders long after the key's own update.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
    const searchSent = page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === "/apps.data" && url.searchParams.get("q") === "fin";
    });
    await search(page).pressSequentially("fin");
    await searchSent;
    await search(page).press("ArrowDown");
    const listbox = page.getByRole("listbox", { name: "Industry suggestions" });
    await expect(listbox.getByRole("option", { name: "Financial Services" })).toHaveAttribute("aria-selected", "true");
    await search(page).press("Enter");
    await expect(industrySelect(page)).toHaveValue("Financial Services");
    await expect(search(page)).toHaveValue("");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  });

  test("the industry select filters by exact industry", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    await industrySelect(page).selectOption("Telecommunications");
    await expect(page.getByRole("heading", { level: 2, name: "Telecommunications Solutions" })).toBeVisible();
    await expect(count(page)).toHaveText(countText(matching("", "Telecommunications").length));
    await expect(page).toHaveURL(/industry=Telecommunications/);
  });

  test("pricing tabs change the price and delivery label of a card", async ({ page }) => {
    const app = catalogue[0]!;
    await gotoHydrated(page, "/apps");
    const c = card(page, app);
    for (const tab of ["express", "standard", "monthly", "base"] as const) {
      const quote = quoteApp(app, tab);
      await page.getByRole("tab", { name: APP_TAB_INFO[tab].label }).click();
      await expect(page.getByRole("tab", { name: APP_TAB_INFO[tab].label })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("tabpanel")).toHaveText(APP_TAB_INFO[tab].sentence);
      await expect(c.getByTestId("app-price")).toHaveText(quote.display);
      await expect(c.getByTestId("app-delivery")).toHaveText(quote.delivery);
    }
    // The exact numbers for app 1 (base $18,500): rush 1.5x, professional 0.9x, monthly base/20.
    await page.getByRole("tab", { name: "Rush Delivery" }).click();
    await expect(c.getByTestId("app-price")).toHaveText("$27,750");
    await expect(c.getByTestId("app-delivery")).toHaveText("24-48 hours");
    await expect(page).toHaveURL(/tab=express/);
    await page.getByRole("tab", { name: "Monthly" }).click();
    await expect(c.getByTestId("app-price")).toHaveText("$925/month");
    await expect(c.getByTestId("app-delivery")).toHaveText("Standard timeline");
    await page.getByRole("tab", { name: "Professional" }).press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Rush Delivery" })).toHaveAttribute("aria-selected", "true");
    await expect(c.getByTestId("app-price")).toHaveText("$27,750");
    expect(APP_PRICING_TABS).toHaveLength(4);
  });

  test("grid/list toggle and the Insights/Hide toggle", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    const grid = page.getByRole("link", { name: "Grid view" });
    const list = page.getByRole("link", { name: "List view" });
    await expect(grid).toHaveAttribute("aria-current", "true");
    const first = page.getByTestId("app-card").first();
    const gridWidth = (await first.boundingBox())!.width;
    await list.click();
    await expect(page).toHaveURL(/view=list/);
    await expect(list).toHaveAttribute("aria-current", "true");
    await expect.poll(async () => (await first.boundingBox())!.width).toBeGreaterThan(gridWidth * 2);
    await grid.click();
    await expect(page).toHaveURL(/\/apps$/);

    const app = catalogue[0]!;
    const c = card(page, app);
    await expect(c.getByText("What's Included")).toBeHidden();
    await c.getByText("Insights", { exact: true }).click();
    await expect(c.getByText("What's Included")).toBeVisible();
    for (const f of app.features) await expect(c.locator("details").getByText(f)).toBeVisible();
    await expect(c.locator("details").getByText(app.deliveryTime)).toBeVisible();
    await expect(c.locator("details").getByText("Industry focus")).toBeVisible();
    await c.getByText("Hide", { exact: true }).click();
    await expect(c.getByText("What's Included")).toBeHidden();
  });

  test("no match shows 'No Solutions Found' and Clear Filters restores all 181", async ({ page }) => {
    await gotoHydrated(page, "/apps?industry=Financial+Services");
    await search(page).fill("zzz-nothing-matches");
    await expect(page.getByRole("heading", { name: "No Solutions Found" })).toBeVisible();
    await expect(count(page)).toHaveText("0 solutions available");
    await page.getByRole("link", { name: "Clear Filters" }).click();
    await expect(count(page)).toHaveText("181 solutions available");
    await expect(page.getByRole("heading", { level: 2, name: "All AI Solutions" })).toBeVisible();
    await expect(search(page)).toHaveValue("");
    await expect(industrySelect(page)).toHaveValue("All");
    await expect(page).toHaveURL(/\/apps$/);
  });

  test("reviews dialog opens with its title and count and refreshes every 15 s", async ({ page }) => {
    const app = catalogue[0]!;
    await page.clock.install();
    await gotoHydrated(page, "/apps");
    await card(page, app)
      .getByRole("link", { name: `View all reviews for ${app.name}` })
      .click();
    const dialog = page.getByRole("dialog", { name: `Customer Reviews for ${app.name}` });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/reviews=1/);
    await expect(dialog.getByText(`${app.reviews} Verified Reviews`)).toBeVisible();
    await expect(dialog.getByText("Start your 3-day free trial")).toBeVisible();
    // The Standard tab's build is paid at checkout: no "No payment today" there (only on Monthly).
    await expect(dialog.getByText("Secure checkout. 3-day free trial included.")).toBeVisible();
    const entries = dialog.getByTestId("reviews-list").locator("> li");
    const initial = initialReviews(app);
    await expect(entries).toHaveCount(initial.length);
    await expect(entries.first()).toContainText(initial[0]!.name);
    await expect(entries.first()).toContainText("Verified");
    await expect(entries.first()).toContainText(`${initial[0]!.helpful} helpful`);
    await expect(entries.first().getByTestId("review-time")).toHaveText(initial[0]!.timeAgo);
    await expectNoAxeViolations(page);

    await page.clock.runFor(15_000);
    await expect(entries.first().getByTestId("review-time")).toHaveText("Just now");
    await expect(entries.nth(1).getByTestId("review-time")).toHaveText(/^\d+ minutes? ago$/);
    await expect(entries).toHaveCount(initial.length);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/reviews=/);
  });

  test("'Start 3-Day Trial' shows 'Processing...', the sign-in toast, then lands on /auth", async ({ page }) => {
    const app = catalogue[0]!;
    await page.clock.install();
    await gotoHydrated(page, "/apps");
    // Hold the page's timers so the in-progress state can be observed before the redirect.
    await page.clock.pauseAt(Date.now() + 60_000);
    await card(page, app).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(card(page, app).getByRole("button", { name: "Processing..." })).toBeDisabled();
    await expect(card(page, catalogue[1]!).getByRole("button", { name: "Start 3-Day Trial" })).toBeDisabled();
    // The toaster loads on first use; then its own timers need the held clock to move a little. When
    // it mounts depends on the machine, so the clock moves in small steps until the toast shows (far
    // less, in all, than the redirect's delay).
    await expect(async () => {
      await page.clock.runFor(20);
      await expect(page.getByText("Authentication Required")).toBeVisible({ timeout: 250 });
    }).toPass();
    await expect(page.getByText("Please sign in to start your free trial.")).toBeVisible();
    await expect(page).toHaveURL(/\/apps$/);
    await page.clock.runFor(2_000);
    // Sign In says why, and returns to these results afterwards.
    await expect(page).toHaveURL(/\/auth\?reason=trial&next=%2Fapps$/);
    await expect(page.getByRole("status").filter({ hasText: "Please sign in to start your free trial." })).toBeVisible();
  });

  test("has no axe violations", async ({ page }) => {
    await gotoHydrated(page, "/apps");
    await expectNoAxeViolations(page);
  });

  test("fits a 390 px wide phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, "/apps");
    await expect(search(page)).toBeVisible();
    await expect(page.getByRole("tab", { name: "Rush Delivery" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
  });
});

test("keyboard: 'Show more solutions' moves focus to the first new card, also when the link goes away", async ({ page }) => {
  await gotoHydrated(page, "/apps?show=168");
  const more = page.getByRole("link", { name: "Show more solutions" });
  const focusedCard = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return el?.tagName === "LI" ? Array.from(el.parentElement!.children).indexOf(el) : -1;
    });
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("app-card")).toHaveCount(180);
  await expect.poll(focusedCard).toBe(168);
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("app-card")).toHaveCount(181);
  await expect(more).toHaveCount(0);
  await expect.poll(focusedCard).toBe(180);
});

test.describe("apps page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("renders a filtered state from the URL on the server", async ({ page }) => {
    const industry = "Hospitality & Tourism";
    const expected = matching("booking", industry);
    expect(expected.length).toBeGreaterThan(0);
    await page.goto(`/apps?q=booking&industry=${encodeURIComponent(industry)}&tab=express&view=list`);
    await expect(page.getByRole("heading", { level: 2, name: `${industry} Solutions` })).toBeVisible();
    await expect(count(page)).toHaveText(countText(expected.length));
    await expect(search(page)).toHaveValue("booking");
    await expect(industrySelect(page)).toHaveValue(industry);
    await expect(page.getByRole("tab", { name: "Rush Delivery" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("link", { name: "List view" })).toHaveAttribute("aria-current", "true");
    const app = expected[0]!;
    await expect(card(page, app).getByTestId("app-price")).toHaveText(quoteApp(app, "express").display);
    await expect(card(page, app).getByTestId("app-delivery")).toHaveText("24-48 hours");
  });

  test("invalid parameters fall back to the defaults", async ({ page }) => {
    await page.goto("/apps?industry=Nope&tab=gold&view=table");
    await expect(page.getByRole("heading", { level: 2, name: "All AI Solutions" })).toBeVisible();
    await expect(count(page)).toHaveText("181 solutions available");
    await expect(page.getByRole("tab", { name: "Standard" })).toHaveAttribute("aria-selected", "true");
  });

  test("the search form, tabs and reviews link work as plain HTML", async ({ page }) => {
    await page.goto("/apps");
    await search(page).fill("invoice");
    await search(page).press("Enter");
    await expect(page).toHaveURL(/\/apps\?q=invoice/);
    await expect(count(page)).toHaveText(countText(matching("invoice").length));
    await page.getByRole("tab", { name: "Monthly" }).click();
    await expect(page).toHaveURL(/q=invoice&tab=monthly/);
    const app = matching("invoice")[0]!;
    await expect(card(page, app).getByTestId("app-price")).toHaveText(quoteApp(app, "monthly").display);

    await card(page, app)
      .getByRole("link", { name: `View all reviews for ${app.name}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`reviews=${app.id}`));
    const dialog = page.getByRole("dialog", { name: `Customer Reviews for ${app.name}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(`${app.reviews} Verified Reviews`)).toBeVisible();
    await expect(dialog.getByText("No payment today. Cancel anytime.")).toBeVisible();
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/apps\?q=invoice&tab=monthly$/);
  });

  test("'Start 3-Day Trial' opens Sign In, which says why and will come back to /apps", async ({ page }) => {
    await page.goto("/apps");
    await card(page, catalogue[0]!).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/auth\?reason=trial&next=%2Fapps$/);
    await expect(page.getByRole("status").filter({ hasText: "Please sign in to start your free trial." })).toBeVisible();
    // The sign-in form carries the way back; where a sign-in with it lands is checked in
    // auth-security.spec.ts (from an address of its own: sign-ins from 127.0.0.1 share one limit).
    const backTo = page.getByRole("tabpanel", { name: "Sign In" }).locator('input[name="next"]');
    // The email form's (Google's too when Google sign-in is configured; this server has none).
    await expect(backTo).toHaveCount(1);
    await expect(backTo).toHaveValue("/apps");
  });

  test("signed in: 'Start 3-Day Trial' posts the app and tab to /apps and opens that checkout at the server's price", async ({
    browser,
  }) => {
    const app = catalogue.find((a) => a.id === 7)!;
    const { cookie } = await createVerifiedAccount(uniqueEmail("apps-nojs"), "correct-horse-battery", siteOrigin());
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(siteCookies(cookie));
    const page = await context.newPage();
    const posted: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posted.push(`${new URL(r.url()).pathname} ${r.postData()}`);
    });

    // From a card: the tab on screen is the one bought.
    const q = `q=${encodeURIComponent(app.name)}`;
    await page.goto(`/apps?${q}&tab=express`);
    await card(page, app).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/checkout\/local\/cs_local_/);
    await expect(page.getByTestId("checkout-item")).toHaveText(app.name);
    await expect(page.getByTestId("checkout-tab")).toHaveText("Rush Delivery");
    await expect(page.getByTestId("checkout-amount")).toHaveText(quoteApp(app, "express").display);
    expect(posted).toEqual([`/apps appId=${app.id}&tab=express`]);

    // From the reviews dialog, with an amount slipped into the form: the server prices it anyway.
    await page.route(appsPage, (route) =>
      route.request().method() === "POST"
        ? route.continue({ postData: `${route.request().postData()}&amount=1` })
        : route.continue(),
    );
    await page.goto(`/apps?${q}&tab=monthly&reviews=${app.id}`);
    const dialog = page.getByRole("dialog", { name: `Customer Reviews for ${app.name}` });
    await dialog.getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/checkout\/local\/cs_local_/);
    await expect(page.getByTestId("checkout-tab")).toHaveText("Monthly");
    await expect(page.getByTestId("checkout-amount")).toContainText(quoteApp(app, "monthly").display.replace(/\/.*$/, ""));

    // A request the server refuses renders the page again with the reason under that card's button.
    await page.unroute(appsPage);
    await page.route(appsPage, (route) =>
      route.request().method() === "POST" ? route.continue({ postData: `appId=${app.id}&tab=gold` }) : route.continue(),
    );
    await page.goto(`/apps?${q}`);
    await card(page, app).getByRole("button", { name: "Start 3-Day Trial" }).click();
    // An unknown tab is not a valid app request: the spec's 'Invalid app data', as with JavaScript.
    await expect(card(page, app).getByRole("alert")).toHaveText("Invalid app data");
    expect(page.url()).toContain(`/apps?${q}`);

    // A session that ends between loading the page and posting: Sign In says why, as with JavaScript.
    await page.unroute(appsPage);
    await page.goto(`/apps?${q}`);
    await context.clearCookies();
    await card(page, app).getByRole("button", { name: "Start 3-Day Trial" }).click();
    await expect(page).toHaveURL(/\/auth\?next=/);
    const back = new URL(new URL(page.url()).searchParams.get("next")!, page.url());
    expect([back.pathname, back.searchParams.get("q")]).toEqual(["/apps", app.name]);
    await expect(page.getByRole("status").filter({ hasText: "Please sign in to start your free trial." })).toBeVisible();
    await context.close();
  });
});
