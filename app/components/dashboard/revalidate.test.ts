import { describe, expect, it } from "vitest";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { dashboardLayoutShouldRevalidate } from "./revalidate";

const base = "http://localhost:3000";
function args(current: string, next: string, extra: Partial<ShouldRevalidateFunctionArgs> = {}) {
  return {
    currentUrl: new URL(current, base),
    nextUrl: new URL(next, base),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...extra,
  } as ShouldRevalidateFunctionArgs;
}

describe("dashboardLayoutShouldRevalidate (one dashboard visit per page opened)", () => {
  it("does not re-run for the same page with other search parameters or a revalidate() call", () => {
    expect(dashboardLayoutShouldRevalidate(args("/dashboard/addons", "/dashboard/addons?q=email&category=Marketing"))).toBe(
      false,
    );
    expect(dashboardLayoutShouldRevalidate(args("/dashboard/billing?success=true&session_id=cs_1", "/dashboard/billing"))).toBe(
      false,
    );
    expect(dashboardLayoutShouldRevalidate(args("/dashboard?toast=trial-started", "/dashboard"))).toBe(false);
    expect(dashboardLayoutShouldRevalidate(args("/dashboard/billing", "/dashboard/billing"))).toBe(false);
  });

  it("does not re-run after a page's own action, whether it stays or redirects to its page with a toast", () => {
    const post = { formMethod: "POST" as const };
    expect(
      dashboardLayoutShouldRevalidate(
        args("/dashboard/onboarding", "/dashboard/onboarding", { ...post, formAction: "/dashboard/onboarding" }),
      ),
    ).toBe(false);
    expect(
      dashboardLayoutShouldRevalidate(
        args("/dashboard/settings", "/dashboard/settings?toast=saved", { ...post, formAction: "/dashboard/settings" }),
      ),
    ).toBe(false);
    // The overview's own form posts to the index route, not to the layout.
    expect(
      dashboardLayoutShouldRevalidate(args("/dashboard", "/dashboard?toast=x", { ...post, formAction: "/dashboard?index" })),
    ).toBe(false);
  });

  it("re-runs after the layout's trial start redirects to a new URL", () => {
    expect(
      dashboardLayoutShouldRevalidate(
        args("/dashboard/billing", "/dashboard?toast=trial-started", { formMethod: "POST", formAction: "/dashboard" }),
      ),
    ).toBe(true);
    // A refused start stays on the page with its error: nothing to re-read.
    expect(
      dashboardLayoutShouldRevalidate(args("/dashboard", "/dashboard", { formMethod: "POST", formAction: "/dashboard" })),
    ).toBe(false);
  });

  it("leaves moves to another page to React Router's default", () => {
    expect(dashboardLayoutShouldRevalidate(args("/dashboard", "/dashboard/billing"))).toBe(true);
    expect(dashboardLayoutShouldRevalidate(args("/dashboard", "/dashboard/billing", { defaultShouldRevalidate: false }))).toBe(
      false,
    );
  });
});
