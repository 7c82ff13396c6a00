import type { Page } from "@playwright/test";

/** Navigates and waits until React has hydrated the page (root.tsx sets html[data-hydrated]). */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
  return response;
}
