import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Asserts that axe finds no WCAG 2.x A/AA violation on the page as it is now.
 *
 * axe runs inside the page (AxeBuilder's legacy mode: one `axe.run`, frames reached through axe's
 * own messaging) rather than frame by frame with the results merged in an extra blank page: the
 * extra page is a new renderer process per check, costing about a second of the browser's CPU and
 * wall time each on these machines, and it was seen to hang on the dev mailbox's sandboxed frames.
 * The rules and their results are the same; what the page's own scripts could disturb is nothing
 * here, as the check runs after the page has settled.
 *
 * Only violations are collected node by node (axe's `resultTypes`): every rule still runs on every
 * node, but for passing and inapplicable rules axe keeps one example instead of describing each
 * node it checked, which was about a quarter of a check's time on the larger pages.
 */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} -> ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, summary.join("\n")).toEqual([]);
}
