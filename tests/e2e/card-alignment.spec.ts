import { expect, test, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { payWith, signedInContext } from "./support/customer";
import { gotoHydrated } from "./support/page";

/** The top of each locator's element, in page pixels. */
async function tops(items: Locator[]): Promise<number[]> {
  return Promise.all(items.map(async (l) => Math.round((await l.boundingBox())!.y)));
}

/** Pays a tier's checkout, which opens in a new tab, with the test card. */
async function payInNewTab(context: BrowserContext, page: Page, button: Locator) {
  const [checkout] = await Promise.all([context.waitForEvent("page"), button.click()]);
  await checkout.waitForURL(/\/checkout\/local\/cs_local_/);
  await checkout.waitForSelector("html[data-hydrated]");
  await payWith(checkout, "4242 4242 4242 4242");
  await checkout.waitForURL(/\/dashboard\//);
  await checkout.close();
  await page.bringToFront();
}

test("on /apps a Popular card's name lines up with its neighbours' in the same row", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await gotoHydrated(page, "/apps");
  const cards = page.getByTestId("app-card");
  await expect(cards.first()).toBeVisible();
  const count = Math.min(await cards.count(), 24);
  const rows = new Map<number, { popular: boolean; name: Locator }[]>();
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    const top = Math.round((await card.boundingBox())!.y);
    const entry = { popular: (await card.getByText("Popular", { exact: true }).count()) > 0, name: card.locator("h3") };
    rows.set(top, [...(rows.get(top) ?? []), entry]);
  }
  // A row with a Popular card and a card without one: the names start at the same height.
  const mixed = [...rows.values()].filter((row) => row.some((c) => c.popular) && row.some((c) => !c.popular));
  expect(mixed.length).toBeGreaterThan(0);
  for (const row of mixed) expect(new Set(await tops(row.map((c) => c.name))).size).toBe(1);
});

test("scaling: tier names and prices line up, and the current plan card says what the tier includes", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context } = await signedInContext(browser, "card-alignment", { trial: true });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await gotoHydrated(page, "/dashboard/scaling");
  const tiers = page.locator('[data-testid^="tier-"]');
  const names = await tiers.locator("h3").all();
  expect(names.length).toBeGreaterThan(2);
  // At this width all tiers share one row; the Popular one has a badge, the others none.
  expect(new Set(await tops(names)).size).toBe(1);
  expect(new Set(await tops(await tiers.locator("p:has(> span.text-2xl)").all())).size).toBe(1);

  await expect(page.getByRole("link", { name: "Compare the billing plans" })).toBeVisible();
  await expect(page.getByTestId("scaling-current-includes")).toHaveCount(0);
  await expect(page.getByTestId("scaling-tier-promises").getByRole("listitem")).toHaveCount(3);

  await payInNewTab(context, page, page.getByTestId("tier-0").getByRole("button"));
  await gotoHydrated(page, "/dashboard/scaling");
  const includes = page.getByTestId("scaling-current-includes");
  await expect(includes.getByRole("listitem")).toHaveText([/^10,000 contacts$/, /SMS$/, /emails$/]);
  await expect(page.getByTestId("scaling-tier-promises")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Invoices, payment method and billing plans" })).toHaveAttribute(
    "href",
    "/dashboard/billing",
  );
  await context.close();
});
