import type { ShouldRevalidateFunctionArgs } from "react-router";

/** The dashboard layout's own action (trial start, sign-out) is posted here; a page's is not. */
function isLayoutAction(formAction: string | undefined, currentUrl: URL): boolean {
  if (!formAction) return false;
  const target = new URL(formAction, currentUrl);
  return target.pathname === "/dashboard" && !target.searchParams.has("index");
}

/**
 * When the dashboard layout's loader runs again. Each run records a dashboard visit (the spec's
 * access counter and the analytics chart), so it runs once per page the customer opens, not for
 * what happens on the page:
 * - after the layout's own action (the trial start redirects to a new URL and the gate is re-read);
 * - never after a page's action (a form that saves and stays, or redirects to its page with a toast);
 * - never for the same page with other search parameters (the add-on search and category, the
 *   checkout-return and `?toast=` parameters removed) or a revalidate() call (back from the checkout
 *   tab, Refresh status): the page's own loader re-reads its data then.
 * Otherwise React Router's default applies (a move to another page keeps the layout's data).
 */
export function dashboardLayoutShouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formMethod && formMethod.toUpperCase() !== "GET") {
    return isLayoutAction(formAction, currentUrl) && currentUrl.href !== nextUrl.href ? defaultShouldRevalidate : false;
  }
  if (currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}
