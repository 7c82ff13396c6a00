import { expect, test } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { allReviews, REVIEWS_SHOWN } from "../../app/catalogue/reviews";
import { gotoHydrated } from "./support/page";

/** The reviews dialog's count is what a customer can read: the latest first, then every other one. */
test("the reviews dialog's 'N Verified Reviews' can all be read, with the keyboard, and the list holds still meanwhile", async ({
  page,
}) => {
  const app = allApps().find((a) => a.reviews > 60)!;
  const all = allReviews(app);
  await page.clock.install();
  await gotoHydrated(page, `/apps?q=${encodeURIComponent(app.name)}`);
  await page
    .getByRole("link", { name: `View all reviews for ${app.name}` })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: `Customer Reviews for ${app.name}` });
  await expect(dialog.getByText(`${app.reviews} Verified Reviews`)).toBeVisible();
  await expect(dialog.getByTestId("reviews-list").locator("> li")).toHaveCount(REVIEWS_SHOWN);

  const more = dialog.locator("summary", { hasText: `Read all ${app.reviews} reviews` });
  const earlier = dialog.getByTestId("earlier-reviews").locator("> li");
  await expect(earlier.first()).toBeHidden();
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(earlier.first()).toBeVisible();
  await expect(earlier).toHaveCount(app.reviews - REVIEWS_SHOWN);
  await expect(earlier.last()).toContainText(all.at(-1)!.name);
  await earlier.last().scrollIntoViewIfNeeded();
  await expect(earlier.last()).toBeInViewport();

  // Every name once, across both lists: N reviews, no repeats.
  const names = await dialog
    .locator("li")
    .evaluateAll((items) => items.map((li) => li.querySelector("p > span")?.textContent ?? ""));
  expect(names).toHaveLength(app.reviews);
  expect(new Set(names).size).toBe(app.reviews);

  // While the full list is open the latest ones are not swapped under the reader.
  const before = await dialog.getByTestId("reviews-list").innerText();
  await page.clock.runFor(31_000);
  expect(await dialog.getByTestId("reviews-list").innerText()).toBe(before);

  // A click closes it again, and opens it.
  await more.click();
  await expect(earlier.first()).toBeHidden();
  await more.click();
  await expect(earlier.first()).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the reviews dialog opens its full list natively", async ({ page }) => {
    const app = allApps()[0]!;
    await page.goto("/apps?reviews=1");
    const dialog = page.getByRole("dialog", { name: `Customer Reviews for ${app.name}` });
    const earlier = dialog.getByTestId("earlier-reviews").locator("> li");
    await expect(earlier.first()).toBeHidden();
    await dialog.getByText(`Read all ${app.reviews} reviews`).click();
    await expect(earlier.first()).toBeVisible();
    await expect(earlier).toHaveCount(app.reviews - REVIEWS_SHOWN);
  });
});
