import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Asserts that axe finds no WCAG 2.x A/AA violation on the page as it is now. `framesAreSandboxed`:
 * the page's frames run no script (a sandboxed srcdoc), so axe cannot look inside them anyway; its
 * in-page run is used, as its frame-by-frame run opens an extra page that was seen to hang there.
 */
export async function expectNoAxeViolations(page: Page, { framesAreSandboxed = false } = {}) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .setLegacyMode(framesAreSandboxed)
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} -> ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, summary.join("\n")).toEqual([]);
}
