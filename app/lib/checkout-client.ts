import type { CheckoutRequest } from "./checkout-request";

/**
 * Browser side of checkout: POST /api/checkout with *what* is bought, then open the hosted page in
 * a new tab (spec section 7). The tab is opened synchronously in the click handler, while the click
 * still counts as a user gesture, and pointed at the checkout URL once the server answers; opening
 * it after the await would be blocked as a pop-up by most browsers.
 */

export type CheckoutAnswer = { url: string } | { status: number; error: string; field?: string };

/** status 0 = the request never reached the server (offline, aborted). */
export async function postCheckout(request: CheckoutRequest): Promise<CheckoutAnswer> {
  let res: Response;
  try {
    res = await fetch("/api/checkout", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request),
    });
  } catch {
    return { status: 0, error: "Network error" };
  }
  const body = (await res.json().catch(() => null)) as { url?: unknown; error?: unknown; field?: unknown } | null;
  if (!res.ok) {
    return {
      status: res.status,
      error: typeof body?.error === "string" ? body.error : `HTTP ${res.status}`,
      ...(typeof body?.field === "string" ? { field: body.field } : {}),
    };
  }
  // Same-site paths (local provider) or Stripe's https pages; anything else is not followed.
  if (typeof body?.url !== "string" || !(body.url.startsWith("/") || body.url.startsWith("https://"))) {
    return { status: res.status, error: "No checkout URL received" };
  }
  if (body.url.startsWith("//")) return { status: res.status, error: "No checkout URL received" };
  return { url: body.url };
}

export interface CheckoutTab {
  /** Sends the tab to the checkout page (or this tab, when the browser blocked the new one). */
  go(url: string): void;
  /** Closes the placeholder tab after a failure. */
  cancel(): void;
}

/** Call in the click handler, before any await. */
export function openCheckoutTab(): CheckoutTab {
  let tab: Window | null = null;
  try {
    tab = window.open("", "_blank");
    // The checkout page must not be able to script this page.
    if (tab) tab.opener = null;
  } catch {
    tab = null;
  }
  return {
    go(url) {
      if (tab && !tab.closed) tab.location.href = url;
      else window.location.assign(url);
    },
    cancel() {
      if (tab && !tab.closed) tab.close();
    },
  };
}

/** The whole click: opens the tab, asks the server, then navigates or closes it. */
export async function startCheckout(request: CheckoutRequest): Promise<CheckoutAnswer> {
  const tab = openCheckoutTab();
  const answer = await postCheckout(request);
  if ("url" in answer) tab.go(answer.url);
  else tab.cancel();
  return answer;
}
