import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";

const HERO = "AI is the Future — Is Your Business Ready?";
const T0 = new Date("2026-03-02T10:00:00Z");

/** Freezes the page clock a minute after T0 (timers due by then fire once), so tests advance it by hand. */
async function freezeClock(page: Page) {
  await page.clock.pauseAt(new Date(T0.getTime() + 60_000));
}

/** The slide after slide n (1-8), wrapping around. */
const next = (n: number) => (n % 8) + 1;

async function currentReview(page: Page): Promise<number> {
  const label = await page.getByRole("group", { name: /^Review \d of 8$/ }).getAttribute("aria-label");
  return Number(/Review (\d) of 8/.exec(label ?? "")?.[1]);
}

test.describe("home", () => {
  test("hero, stats, eras, claims, features and calls to action", async ({ page }) => {
    await gotoHydrated(page, "/");
    await expect(page).toHaveTitle(/AI is the Future — Is Your Business Ready\?/);
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(HERO);

    const hero = main.locator("section").first();
    await expect(hero.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/industries");
    const demo = hero.getByRole("link", { name: /^BOOK DEMO/ });
    await expect(demo).toHaveAttribute("target", "_blank");
    await expect(demo).toHaveAttribute("rel", /noopener/);
    await expect(demo).toHaveAttribute("href", /^https:\/\//);

    for (const [value, label] of [
      ["10,000+", "Businesses automated"],
      ["2.8M+", "AI interactions monthly"],
      ["99.9%", "Uptime"],
      ["24/7", "Support"],
    ] as const) {
      await expect(hero.getByText(value, { exact: true })).toBeVisible();
      await expect(hero.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(hero.getByText("65+ Industries Supported", { exact: true })).toBeVisible();
    for (const era of ["Industrial Era", "Digital Era", "Mobile Era", "AI Era"]) {
      await expect(main.getByRole("heading", { name: era })).toBeVisible();
    }
    for (const claim of ["35%", "80%", "95%", "2-4 weeks"]) {
      await expect(main.getByText(claim, { exact: true }).first()).toBeVisible();
    }
    await expect(main.getByText("80% of repetitive tasks automated")).toBeVisible();
    for (const feature of ["Fast Deployment", "Enterprise Security", "Global Scale"]) {
      await expect(main.getByRole("heading", { name: feature })).toBeVisible();
    }
    await expect(main.getByText(/go live in under 24 hours/)).toBeVisible();

    const closing = main.locator("section", {
      has: page.getByRole("heading", { name: "Ready to Put AI to Work in Your Business?" }),
    });
    await expect(closing.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/industries");
    await expect(closing.getByRole("link", { name: /^BOOK DEMO/ })).toHaveAttribute("target", "_blank");

    await expectNoAxeViolations(page);

    await hero.getByRole("link", { name: "Start Free Trial" }).click();
    await expect(page).toHaveURL(/\/industries$/);
  });

  test("assistant demo plays 2000/1500/2500/1800 ms stages, pauses and resets", async ({ page }) => {
    await page.clock.install({ time: T0 });
    await gotoHydrated(page, "/");
    await freezeClock(page);

    const widget = page.getByTestId("assistant-demo");
    const log = widget.getByRole("log", { name: "Demo conversation" });
    const step = widget.getByTestId("demo-step");
    const customer = log.getByText("Hi! Can I book a teeth cleaning for Friday afternoon?");
    const thinking = log.getByText("AI assistant is checking the calendar…");
    const answer = log.getByText(/Of course! Dr\. Patel has openings/);
    const booked = log.getByText(/Appointment booked: Friday, 2:00 PM/);
    const done = log.getByText("Demo Complete!");

    await expect(step).toHaveText("Ready");
    await expect(customer).toHaveCount(0);

    await widget.getByRole("button", { name: "Start" }).click();
    await expect(step).toHaveText("Step 1 of 4");
    await expect(customer).toBeVisible();
    await page.clock.runFor(1999);
    await expect(thinking).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(step).toHaveText("Step 2 of 4");
    await expect(thinking).toBeVisible();

    // Pause 600 ms into the 1500 ms thinking stage: time stands still, then 900 ms remain.
    await page.clock.runFor(600);
    await widget.getByRole("button", { name: "Pause" }).click();
    await page.clock.runFor(10_000);
    await expect(step).toHaveText("Step 2 of 4");
    await expect(answer).toHaveCount(0);
    await widget.getByRole("button", { name: "Resume" }).click();
    await page.clock.runFor(899);
    await expect(step).toHaveText("Step 2 of 4");
    await page.clock.runFor(1);
    await expect(step).toHaveText("Step 3 of 4");
    await expect(answer).toBeVisible();
    await expect(thinking).toHaveCount(0);

    await page.clock.runFor(2499);
    await expect(booked).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(step).toHaveText("Step 4 of 4");
    await expect(booked).toBeVisible();

    await page.clock.runFor(1799);
    await expect(done).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(done).toBeVisible();
    await expect(step).toHaveText("Done");
    await expect(customer).toBeVisible();
    await expect(answer).toBeVisible();

    await widget.getByRole("button", { name: "Reset" }).click();
    await expect(step).toHaveText("Ready");
    await expect(done).toHaveCount(0);
    await expect(customer).toHaveCount(0);
    await expect(log.getByText("Press Start to watch")).toBeVisible();
  });

  test("review carousel advances every 5 s and wraps around with previous/next", async ({ page }) => {
    await page.clock.install({ time: T0 });
    await gotoHydrated(page, "/");
    await freezeClock(page);

    const carousel = page.getByRole("region", { name: "Customer reviews" });
    await expect(carousel.getByRole("group", { name: /^Review \d of 8$/ })).toHaveCount(1);
    const first = await currentReview(page);

    await page.clock.runFor(4999);
    expect(await currentReview(page)).toBe(first);
    await page.clock.runFor(1);
    await expect(carousel.getByRole("group", { name: `Review ${next(first)} of 8` })).toBeVisible();
    await page.clock.runFor(5000);
    await expect(carousel.getByRole("group", { name: `Review ${next(next(first))} of 8` })).toBeVisible();

    // Walk to the last slide, then wrap forwards and backwards.
    const nextButton = carousel.getByRole("button", { name: "Next review" });
    const prevButton = carousel.getByRole("button", { name: "Previous review" });
    for (let n = await currentReview(page); n !== 8;) {
      await nextButton.click();
      n = next(n);
      await expect(carousel.getByRole("group", { name: `Review ${n} of 8` })).toBeVisible();
    }
    await expect(carousel.getByTestId("review-position")).toHaveText("8 / 8");
    await nextButton.click();
    await expect(carousel.getByRole("group", { name: "Review 1 of 8" })).toBeVisible();
    await prevButton.click();
    await expect(carousel.getByRole("group", { name: "Review 8 of 8" })).toBeVisible();
    await prevButton.click();
    await expect(carousel.getByRole("group", { name: "Review 7 of 8" })).toBeVisible();

    // Focus inside (the buttons) holds the rotation; the rotation can also be stopped explicitly.
    await page.clock.runFor(15_000);
    await expect(carousel.getByRole("group", { name: "Review 7 of 8" })).toBeVisible();
    await carousel.getByRole("button", { name: "Stop automatic rotation" }).click();
    await expect(carousel.getByRole("button", { name: "Start automatic rotation" })).toBeVisible();
  });

  for (const path of ["/", "/ref/someone"]) {
    test(`a document load of ${path} hydrates only its widgets: no React Router, at most 100 KB of JavaScript`, async ({
      page,
    }) => {
      const scripts: Promise<number>[] = [];
      page.on("response", (r) => {
        if (new URL(r.url()).pathname.endsWith(".js")) scripts.push(r.body().then((b) => gzipSync(b, { level: 9 }).length));
      });
      await gotoHydrated(page, path);
      expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
      const sizes = await Promise.all(scripts);
      expect(sizes.length).toBeGreaterThan(0);
      expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100 * 1024);

      // Every island is live: the bar's menu, the ticker's timer, the demo and the carousel.
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Resources" }).click();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "How It Works" })).toBeVisible();
      await page.keyboard.press("Escape");
      await page.getByTestId("assistant-demo").getByRole("button", { name: "Start" }).click();
      await expect(page.getByTestId("demo-step")).toHaveText("Step 1 of 4");
      await page.getByRole("button", { name: "Next review" }).click();
      await expect(page.getByTestId("review-position")).toHaveText("2 / 8");
    });
  }

  test("a client-side navigation to / renders the home page with working widgets", async ({ page }) => {
    await gotoHydrated(page, "/how-it-works");
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "AI Automation Apps home" }).click();
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText(HERO);
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    await page.getByTestId("assistant-demo").getByRole("button", { name: "Start" }).click();
    await expect(page.getByTestId("demo-step")).toHaveText("Step 1 of 4");
  });

  test("/ref/{username} renders the home page", async ({ page }) => {
    await gotoHydrated(page, "/ref/someone");
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText(HERO);
    await expect(page.locator("main").getByRole("link", { name: "Start Free Trial" }).first()).toHaveAttribute(
      "href",
      "/industries",
    );
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const path of ["/", "/ref/someone"]) {
    test(`${path} server-renders the hero and both widgets`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(HERO);
      await expect(page.getByRole("log", { name: "Demo conversation" })).toContainText("Press Start to watch");
      await expect(page.getByRole("group", { name: "Review 1 of 8" })).toBeVisible();
    });
  }
});

test("how it works: four steps, claims and the free-trial button", async ({ page }) => {
  await gotoHydrated(page, "/how-it-works");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("How It Works");
  const steps = main.getByRole("list").filter({ has: page.getByRole("heading", { name: /Start Your 3-Day Free Trial/ }) });
  await expect(steps.getByRole("heading", { level: 3 })).toHaveText([
    "Start Your 3-Day Free Trial",
    "Discovery Call & Consultation",
    "Development & Build",
    "Launch & Ongoing Support",
  ]);
  await expect(steps.getByText(/^Step \d$/)).toHaveText(["Step 1", "Step 2", "Step 3", "Step 4"]);
  await expect(steps).toContainText("initial draft");
  await expect(steps).toContainText("No payment required");
  await expect(steps).toContainText("30-minute");
  await expect(main.getByText("95%", { exact: true })).toBeVisible();
  await expect(main.getByText("2-4 weeks", { exact: true })).toBeVisible();
  await expect(main.getByRole("heading", { name: "Real Estate & Mortgage" })).toBeVisible();
  const cta = main.getByRole("link", { name: "Start Free Trial" });
  await expect(cta.first()).toHaveAttribute("href", "/industries");
  await expectNoAxeViolations(page);
  await cta.first().click();
  await expect(page).toHaveURL(/\/industries$/);
});

test("results: claims, case studies and calls to action", async ({ page }) => {
  await gotoHydrated(page, "/results");
  const main = page.locator("main");
  for (const value of ["35%", "80%", "95%", "90%", "2.8M+", "10,000+"]) {
    await expect(main.getByText(value, { exact: true })).toBeVisible();
  }
  await expect(main.getByRole("heading", { name: "What It Looks Like in Practice" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/industries");
  await expect(main.getByRole("link", { name: "Browse Ready-Made Apps" })).toHaveAttribute("href", "/apps");
  await expectNoAxeViolations(page);
});

test("earn: affiliate and distributor programs", async ({ page }) => {
  await gotoHydrated(page, "/earn");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Earn With Us");
  const affiliate = main.getByRole("article", { name: "Affiliate Program" });
  await expect(affiliate).toContainText("30% lifetime commission");
  await expect(affiliate.getByRole("link", { name: "Join the Affiliate Program" })).toHaveAttribute("href", "/affiliate-signup");
  const distributor = main.getByRole("article", { name: "Distributor Program" });
  await expect(distributor).toContainText("$997 setup + $199/month");
  await expect(distributor).toContainText("7-day free trial");
  await expect(distributor.getByRole("link", { name: "Explore the Distributor Program" })).toHaveAttribute(
    "href",
    "/distributors",
  );
  await expectNoAxeViolations(page);
});

test("distributors: price, sign-in call to action and FAQ", async ({ page }) => {
  await gotoHydrated(page, "/distributors");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Build Your Own AI Automation Business");
  await expect(main.getByText("$997 setup + $199/month").first()).toBeVisible();
  await expect(main.getByText("7-day free trial").first()).toBeVisible();
  const join = main.getByRole("link", { name: "Become a Distributor" });
  await expect(join).toHaveCount(3);
  for (const link of await join.all()) await expect(link).toHaveAttribute("href", "/auth?next=/distributors");
  await expect(main.getByRole("heading", { name: "What You Get" })).toBeVisible();
  await expect(main.getByRole("heading", { name: "Three Steps to Your AI Business" })).toBeVisible();

  const answer = main.getByText(/^Earnings are unlimited\./);
  await expect(answer).toBeHidden();
  await main.getByText("How much can I earn?").click();
  await expect(answer).toBeVisible();
  await expectNoAxeViolations(page);
});

// The welcome and its four steps are for a paid order only: tests/e2e/return-pages.spec.ts.
test("distributor success without an order: not found, never 'Payment Confirmed'", async ({ page }) => {
  expect((await gotoHydrated(page, "/distributor-success"))?.status()).toBe(404);
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Order not found");
  await expect(main).not.toContainText("Payment Confirmed");
  await expect(main).not.toContainText("have been processed");
  await expect(main.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(main.getByRole("link", { name: "Browse Apps" })).toHaveAttribute("href", "/apps");
  await expectNoAxeViolations(page);
});

test.describe("payment returns", () => {
  // A paid order's confirmation, order id and next-step links: tests/e2e/return-pages.spec.ts.
  test("success signed out asks to sign in and come back, confirming nothing", async ({ page }) => {
    await gotoHydrated(page, "/payment-success?session_id=cs_test_123");
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Sign in to see your order");
    await expect(main).not.toContainText(/Payment Successful|confirmed/);
    await expect(main.getByRole("link", { name: "Sign In" })).toHaveAttribute(
      "href",
      `/auth?next=${encodeURIComponent("/payment-success?session_id=cs_test_123")}`,
    );
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expectNoAxeViolations(page);
  });

  for (const query of [
    "",
    "?session_id=",
    "?session_id=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "?session_id=cs%20test",
    `?session_id=${"a".repeat(201)}`,
  ]) {
    test(`success with session_id '${query.slice(0, 40)}' is not found`, async ({ page }) => {
      expect((await gotoHydrated(page, `/payment-success${query}`))?.status()).toBe(404);
      await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Order not found");
      await expect(page.getByTestId("order-id")).toHaveCount(0);
      await expect(page.locator("main")).not.toContainText("<script>");
    });
  }

  test("a 200-character session id is kept for the way back after signing in", async ({ page }) => {
    const id = `cs_${"A1-_".repeat(49)}x`.slice(0, 200);
    await gotoHydrated(page, `/payment-success?session_id=${id}`);
    await expect(page.locator("main").getByRole("link", { name: "Sign In" })).toHaveAttribute(
      "href",
      `/auth?next=${encodeURIComponent(`/payment-success?session_id=${id}`)}`,
    );
  });

  test("cancel offers Try Again and Back to Home", async ({ page }) => {
    await gotoHydrated(page, "/payment-cancel");
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Payment Cancelled");
    await expect(main.getByRole("link", { name: "Try Again" })).toHaveAttribute("href", "/packages");
    await expect(main.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expectNoAxeViolations(page);
    await main.getByRole("link", { name: "Back to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(HERO);
  });
});
