import path from "node:path";
import type { Page } from "@playwright/test";

/**
 * Screens of the end-to-end run, saved for people to look at:
 * `E2E_SCREENSHOTS=/tmp/screens npx playwright test ...`. Without it (as in `npm test`) none are
 * taken: nothing in a run reads them, and a full-page screenshot in software rendering costs the
 * browser about as much as drawing the page did. A failing test keeps its own screenshot either way
 * (playwright.config.ts).
 */
const DIR = process.env.E2E_SCREENSHOTS;

/** The page as it is now, as `<name>.png`: the whole page, or with `fullPage: false` the window. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  if (!DIR) return;
  await page.screenshot({ path: path.join(DIR, `${name}.png`), fullPage });
}

/**
 * The page at each width (a phone's height below 500 px, else the window's), as
 * `<name>-<width>.png`; the window then gets its size back.
 */
export async function screenshotAt(page: Page, name: string, widths: number[], { fullPage = true } = {}) {
  if (!DIR) return;
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : size.height });
    await screenshot(page, `${name}-${width}`, { fullPage });
  }
  await page.setViewportSize(size);
}
