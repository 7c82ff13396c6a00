import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";

/** The funnel industry -> goal -> packages, the two presentations of /packages, and /questionnaire. */

const HEALTH = "Health & Wellness";

function query(page: Page) {
  return new URL(page.url()).searchParams;
}

function plan(page: Page, name: string) {
  return page.getByRole("article", { name });
}

test.describe("with JavaScript", () => {
  test("industries: instant search keeps the URL in sync, empty state clears", async ({ page }) => {
    await gotoHydrated(page, "/industries");
    await expect(page.getByRole("heading", { level: 1, name: "Choose Your Industry" })).toBeVisible();
    const grid = page.getByRole("list", { name: "Industry categories" });
    await expect(grid.locator("> li")).toHaveCount(12);
    // Each card: count of types, first 3 industries + '+N more', first 3 add-ons.
    const health = grid.locator("> li").filter({ has: page.getByRole("heading", { name: HEALTH }) });
    await expect(health).toContainText("7 industry types");
    await expect(health.getByRole("list", { name: `Industries in ${HEALTH}` }).getByRole("listitem")).toHaveText([
      "Medical Practices",
      "Dental Clinics",
      "Chiropractors",
      "+4 more",
    ]);
    await expect(health).toContainText("Appointment Booking AI");
    await expect(health).toContainText("Reminder SMS");
    await expect(health).not.toContainText("Review Generation");
    await expect(page.getByRole("link", { name: "Browse Apps" })).toHaveAttribute("href", "/apps");

    await page.getByRole("searchbox", { name: "Search industries" }).fill("DENTAL");
    await expect(grid.locator("> li")).toHaveCount(1);
    await expect(grid.getByRole("heading", { name: HEALTH })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText("1 of 12 categories match “DENTAL”");
    await expect(page).toHaveURL(/\/industries\?q=DENTAL$/);

    await page.getByRole("searchbox", { name: "Search industries" }).fill("zzz-nothing");
    await expect(page.getByRole("heading", { name: "No industries match “zzz-nothing”" })).toBeVisible();
    await page.getByRole("link", { name: "Clear search" }).click();
    await expect(grid.locator("> li")).toHaveCount(12);
    await expect(page.getByRole("searchbox", { name: "Search industries" })).toHaveValue("");
    await expect(page).toHaveURL(/\/industries$/);
  });

  test("industry -> goal -> packages with the discount, monthly mode and Back to Goals", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });

    await gotoHydrated(page, "/industries?q=dental");
    await page.getByRole("link", { name: HEALTH }).click();
    await expect(page).toHaveURL(/\/goals\?/);
    expect(query(page).get("industry")).toBe(HEALTH);
    await page.waitForSelector("html[data-hydrated]");
    await expect(page.getByText("Industry:")).toBeVisible();
    await expect(page.getByText(HEALTH, { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Industries" })).toHaveAttribute("href", "/industries");

    // Timeline dropdown defaults to standard and lists all 7 timelines.
    const timeline = page.getByLabel("Delivery timeline");
    await expect(timeline).toHaveValue("standard");
    await expect(timeline.locator("option")).toHaveCount(7);
    await expect(page.locator("#timeline-description")).toHaveText("Our standard delivery schedule");

    // The goal cards show complexity, timeline text and the multiplier where it is not 1.
    const goals = page.getByRole("group", { name: "Your goal" });
    await expect(goals.getByRole("radio")).toHaveCount(3);
    await expect(goals).toContainText("20% off");
    await expect(goals).toContainText("+50%");
    await expect(goals).toContainText("Premium Build");
    await expect(goals).toContainText("8-12 weeks");

    // No goal yet: nothing happens, the spec's message is logged.
    await page.getByRole("button", { name: "Select This Goal" }).click();
    await expect.poll(() => errors).toContain("Goal or timeline not found");
    await expect(page).toHaveURL(/\/goals\?/);

    await page.getByRole("radio", { name: "Add AI to an Existing App" }).check();
    await expect(page.getByRole("radio", { name: "Add AI to an Existing App" })).toBeChecked();
    // The choice is kept in the address bar (replace), so a reload or Back shows it again.
    await expect(page).toHaveURL(/goal=add_ai/);
    await page.getByRole("button", { name: "Select This Goal" }).click();
    await expect(page).toHaveURL(/\/packages\?/);
    const q = query(page);
    expect(Object.fromEntries(q)).toEqual({ industry: HEALTH, goal: "add_ai", timeline: "standard" });

    await expect(page.getByRole("heading", { level: 1, name: "Quick Pick Plan" })).toBeVisible();
    await expect(
      page.getByText("Personalised for Health & Wellness: Add AI to an Existing App on the Standard (3 Weeks) timeline."),
    ).toBeVisible();
    await expect(page.getByTestId("multiplier-badge")).toHaveText("20% DISCOUNT Applied!");
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$2,800");
    await expect(plan(page, "Professional").getByTestId("plan-price")).toHaveText("$4,000");
    await expect(plan(page, "Enterprise").getByTestId("plan-price")).toHaveText("$20,000");
    await expect(plan(page, "Professional")).toContainText("MOST POPULAR");
    // Struck-through original price and the rush amount (x1.5).
    await expect(plan(page, "Starter").locator("s")).toHaveText("Was $5,000");
    await expect(plan(page, "Starter").getByTestId("rush-price")).toHaveText("$4,200");

    const toggle = page.getByRole("switch", { name: "Monthly Payment" });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$1,600/month");
    await expect(plan(page, "Professional").getByTestId("plan-price")).toHaveText("$2,400/month");
    await expect(plan(page, "Enterprise").getByTestId("plan-price")).toHaveText("$4,000/month");
    await expect(page).toHaveURL(/mode=monthly/);

    await page.getByRole("link", { name: "Back to Goals" }).click();
    await expect(page).toHaveURL(/\/goals\?/);
    await expect(page.getByRole("radio", { name: "Add AI to an Existing App" })).toBeChecked();
  });

  test("redesign with rush delivery applies a 125% rush premium", async ({ page }) => {
    await gotoHydrated(page, "/goals?industry=Insurance");
    await page.getByRole("radio", { name: "Redesign & Rebuild with AI" }).check();
    await page.getByLabel("Delivery timeline").selectOption("rush");
    await expect(page.locator("#timeline-description")).toHaveText("Dedicated team, delivered in 24-48 hours (+50%)");
    await page.getByRole("button", { name: "Select This Goal" }).click();
    await expect(page).toHaveURL(/\/packages\?industry=Insurance&goal=redesign&timeline=rush$/);
    await expect(page.getByTestId("multiplier-badge")).toHaveText("125% Rush Premium Applied");
    // 3,500 x 2.25; the "was" price is not shown when it is lower than the price.
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$7,875");
    await expect(plan(page, "Starter").locator("s")).toHaveCount(0);
  });

  test("unknown ids show the generic text and no badge; buttons and links", async ({ page }) => {
    await gotoHydrated(page, "/packages?goal=bogus&timeline=standard&industry=Insurance");
    await expect(page.getByText(/^Personalised for/)).toHaveCount(0);
    await expect(page.getByText("Three ready-to-go plans for businesses of every size.", { exact: false })).toBeVisible();
    await expect(page.getByTestId("multiplier-badge")).toHaveCount(0);
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$3,500");

    // A multiplier in the URL is never trusted.
    await gotoHydrated(page, "/packages?multiplier=0.01");
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$3,500");
    await expect(page.getByTestId("multiplier-badge")).toHaveCount(0);

    // Signed out: both checkout buttons go to /auth and come back to this very page.
    const back = `/auth?next=${encodeURIComponent("/packages?multiplier=0.01")}`;
    for (const name of ["Starter", "Professional", "Enterprise"]) {
      await expect(plan(page, name).getByRole("link", { name: /^Start 3-Day Free Trial/ })).toHaveAttribute("href", back);
      await expect(plan(page, name).getByRole("link", { name: /^Rush \(24-48hrs\) \+50%/ })).toHaveAttribute("href", back);
    }
    await expect(page.getByRole("heading", { name: "The Rush Model" })).toBeVisible();
    for (const point of ["24-48 hour delivery", "Dedicated dev team", "Priority support"])
      await expect(page.getByRole("heading", { name: point })).toBeVisible();
    const demo = page.locator("#main").getByRole("link", { name: /^BOOK DEMO/ });
    await expect(demo).toHaveAttribute("target", "_blank");
    await expect(demo).toHaveAttribute("href", /^https?:\/\//);
    await expect(page.getByRole("link", { name: "View Solutions" })).toHaveAttribute("href", "/apps");

    // Opened directly (no previous page in this tab): Back to Goals follows its link.
    await page.getByRole("link", { name: "Back to Goals" }).click();
    await expect(page).toHaveURL(/\/goals\?industry=general$/);

    // Rush via the URL of a plan in monthly mode.
    await gotoHydrated(page, "/packages?mode=monthly");
    await expect(page.getByRole("switch", { name: "Monthly Payment" })).toHaveAttribute("aria-checked", "true");
    await expect(plan(page, "Starter").getByTestId("rush-price")).toHaveText("$3,000/month");
  });

  test("onboarding presentation: 4 packages, 4 plans, selection kept in the URL", async ({ page }) => {
    await gotoHydrated(page, "/packages?flow=onboarding");
    const packages = page.getByRole("group", { name: "One-time setup packages" });
    const plans = page.getByRole("group", { name: "Monthly management plans" });
    await expect(packages.getByRole("radio")).toHaveCount(4);
    await expect(plans.getByRole("radio")).toHaveCount(4);
    for (const [name, price] of [
      ["Launch Starter", "$997"],
      ["Pro Starter", "$2,500"],
      ["Growth Builder", "$5,000"],
      ["Enterprise AI", "$10,000+"],
    ] as const)
      await expect(packages.getByRole("radio", { name })).toHaveAccessibleDescription(`${price} one-time`);
    await expect(packages).toContainText("Most Popular");
    for (const [name, price] of [
      ["Essential", "$500/mo"],
      ["Growth", "$1,000/mo"],
      ["Scale", "$2,000/mo"],
      ["Agency+", "$5,000/mo"],
    ] as const)
      await expect(plans.getByRole("radio", { name })).toHaveAccessibleDescription(price);

    await packages.getByRole("radio", { name: "Growth Builder" }).check();
    await expect(page).toHaveURL(/package=growth/);
    await plans.getByRole("radio", { name: "Agency+" }).check();
    await expect.poll(() => query(page).get("plan")).toBe("Agency+");
    await expect(page.getByRole("status")).toContainText("Growth Builder ($5,000) + Agency+ ($5,000/mo)");

    await page.reload();
    await expect(packages.getByRole("radio", { name: "Growth Builder" })).toBeChecked();
    await expect(plans.getByRole("radio", { name: "Agency+" })).toBeChecked();

    await expect(page.getByRole("link", { name: "Back to Questions" })).toHaveAttribute("href", "/questionnaire");
    await expect(page.getByRole("link", { name: "Start 7-Day Free Trial" })).toHaveAttribute("href", "/dashboard");
  });

  test("the trial overlay's upgrade tier is sold with its 30% member discount", async ({ page }) => {
    await gotoHydrated(page, "/packages?tier=pro");
    const offer = page.getByTestId("member-offer");
    await expect(offer).toContainText("30% member discount");
    await expect(offer).toContainText("$7,000/month instead of $10,000/month");
    // Signed out, the buy button signs in first and comes back here.
    await expect(offer.getByRole("link", { name: "Buy Pro ($7,000/month)" })).toHaveAttribute(
      "href",
      `/auth?next=${encodeURIComponent("/packages?tier=pro")}`,
    );
    await gotoHydrated(page, "/packages?flow=onboarding&tier=growth");
    await expect(page.getByRole("note")).toContainText("30% member discount");
    await expect(page.getByRole("note")).toContainText("$3,500/month");
    await expect(page.getByRole("note").getByRole("link", { name: "Buy the Growth Member Plan" })).toHaveAttribute(
      "href",
      "/packages?tier=growth",
    );
    await gotoHydrated(page, "/packages?tier=starter");
    await expect(page.getByTestId("member-offer")).toHaveCount(0);
    await expect(page.getByRole("note")).toHaveCount(0);
  });

  test("questionnaire recommends a package and links to it", async ({ page }) => {
    await gotoHydrated(page, "/questionnaire");
    await expect(page.getByText("Answer a few questions")).toBeVisible();
    await page
      .getByRole("group", { name: /How big is your team/ })
      .getByLabel("11-50 people")
      .check();
    const automate = page.getByRole("group", { name: /What do you want to automate/ });
    await automate.getByLabel("Customer support").check();
    await automate.getByLabel("Sales follow-up").check();
    await page
      .getByRole("group", { name: /How many AI assistants/ })
      .getByLabel("4-5")
      .check();
    await page
      .getByRole("group", { name: /budget/ })
      .getByLabel("$1,000 - $3,000")
      .check();
    await page.getByRole("button", { name: "Get my recommendation" }).click();

    await expect(page).toHaveURL(
      /\/questionnaire\?size=medium&automate=support&automate=sales&assistants=4-5&budget=1k-3k#recommendation$/,
    );
    await expect(page.getByTestId("recommended-package")).toHaveText("Pro Starter");
    await expect(page.getByTestId("recommended-plan")).toHaveText("Scale");
    await expect(page.getByRole("heading", { name: "We recommend" })).toBeFocused();
    await expect(page.getByText("We kept within your budget: you can upgrade at any time.")).toBeVisible();

    await page.getByRole("link", { name: "See my packages" }).click();
    await expect(page).toHaveURL(/\/packages\?flow=onboarding&package=pro&plan=Scale$/);
    await expect(page.getByRole("radio", { name: "Pro Starter" })).toBeChecked();
    await expect(page.getByRole("radio", { name: "Scale" })).toBeChecked();

    // Unknown values are ignored, not errors.
    const response = await gotoHydrated(page, "/questionnaire?size=gigantic&assistants=1&channels=fax");
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId("recommended-package")).toHaveText("Launch Starter");
    await page.getByRole("link", { name: "Start over" }).click();
    await expect(page).toHaveURL(/\/questionnaire$/);
    await expect(page.getByRole("radio", { name: "1", exact: true })).not.toBeChecked();
  });

  // One test per page: axe is slow on a loaded 2-core machine. The funnel's entry pages
  // (/industries, /goals, /packages from the funnel, /questionnaire) are checked at phone width in
  // mobile.spec.ts; these are the states only reached by using the funnel.
  for (const url of [
    "/industries?q=zzz",
    "/goals?industry=Insurance&goal=add_ai",
    "/packages?mode=monthly&tier=growth",
    "/packages?flow=onboarding&package=pro&plan=Growth&tier=growth",
    "/questionnaire?size=small&assistants=2-3",
  ]) {
    test(`no axe violations on ${url}`, async ({ page }) => {
      await gotoHydrated(page, url);
      await expectNoAxeViolations(page);
    });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search, goals form and packages work as plain HTML", async ({ page }) => {
    await page.goto("/industries");
    await page.getByRole("searchbox", { name: "Search industries" }).fill("dental");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/industries\?q=dental$/);
    await expect(page.getByRole("list", { name: "Industry categories" }).locator("> li")).toHaveCount(1);
    await page.getByRole("link", { name: HEALTH }).click();
    await expect(page).toHaveURL(/\/goals\?industry=Health/);

    // Without a goal the form just renders /goals again.
    await page.getByRole("button", { name: "Select This Goal" }).click();
    await expect(page).toHaveURL(/\/goals\?/);
    await expect(page.getByRole("heading", { level: 1, name: "Choose Your Project Goal" })).toBeVisible();

    await page.getByRole("radio", { name: "Add AI to an Existing App" }).check();
    await page.getByLabel("Delivery timeline").selectOption("2weeks");
    await page.getByRole("button", { name: "Select This Goal" }).click();
    await expect(page).toHaveURL(/\/packages\?industry=Health\+%26\+Wellness&goal=add_ai&timeline=2weeks$/);
    // 0.8 x 1.1 = 0.88
    await expect(page.getByTestId("multiplier-badge")).toHaveText("12% DISCOUNT Applied!");
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$3,080");

    // The switch's fallback link.
    await page.getByRole("link", { name: "Switch to Monthly Payment" }).click();
    await expect(page).toHaveURL(/mode=monthly/);
    await expect(plan(page, "Starter").getByTestId("plan-price")).toHaveText("$1,760/month");

    // Back to Goals is a link to the goals page with the choice preselected.
    await page.getByRole("link", { name: "Back to Goals" }).click();
    await expect(page).toHaveURL(/\/goals\?industry=Health\+%26\+Wellness&goal=add_ai&timeline=2weeks$/);
    await expect(page.getByRole("radio", { name: "Add AI to an Existing App" })).toBeChecked();
    await expect(page.getByLabel("Delivery timeline")).toHaveValue("2weeks");
  });

  test("onboarding selection and questionnaire work as plain HTML", async ({ page }) => {
    await page.goto("/questionnaire");
    await page
      .getByRole("group", { name: /How many AI assistants/ })
      .getByLabel("2-3")
      .check();
    await page.getByRole("button", { name: "Get my recommendation" }).click();
    await expect(page).toHaveURL(/\/questionnaire\?assistants=2-3#recommendation$/);
    await expect(page.getByTestId("recommended-package")).toHaveText("Pro Starter");
    await page.getByRole("link", { name: "See my packages" }).click();
    await expect(page).toHaveURL(/\/packages\?flow=onboarding&package=pro&plan=Growth$/);
    await expect(page.getByRole("radio", { name: "Pro Starter" })).toBeChecked();

    await page.getByRole("radio", { name: "Enterprise AI" }).check();
    await page.getByRole("button", { name: "Update selection" }).click();
    await expect(page).toHaveURL(/package=enterprise/);
    await expect(page.getByRole("status")).toContainText("Enterprise AI ($10,000+) + Growth ($1,000/mo)");
  });
});
