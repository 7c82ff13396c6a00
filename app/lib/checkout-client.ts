import { isCheckoutRefusalCode, type CheckoutRefusalCode } from "./checkout-codes";
import type { CheckoutRequest } from "./checkout-request";

/**
 * Browser side of checkout: POST /api/checkout with *what* is bought, then open the hosted page in
 * a new tab (spec section 7). The tab is opened synchronously in the click handler, while the click
 * still counts as a user gesture, and pointed at the checkout URL once the server answers; opening
 * it after the await would be blocked as a pop-up by most browsers.
 */

/**
 * Why the browser got no checkout page: the server's refusal code (app/lib/checkout-codes.ts), or
 * what went wrong before or after it: `network_error` (the request never reached the server),
 * `no_checkout_url` (a success without a usable address), `unknown` (an answer with no code this
 * build knows and a status that says nothing either).
 */
export type CheckoutFailureCode = CheckoutRefusalCode | "network_error" | "no_checkout_url" | "unknown";

export interface CheckoutFailure {
  code: CheckoutFailureCode;
  /** The server's words; pages decide on `code` (app/components/checkout/messages.ts). */
  message?: string;
  field?: string;
}

export type CheckoutAnswer = { url: string } | CheckoutFailure;

/**
 * The code of an answer that carries none of ours: something between the browser and the
 * checkout (the origin check, a body limit, a proxy) answered, and its status is all there is.
 */
function codeOfStatus(status: number): CheckoutFailureCode {
  if (status === 401) return "not_signed_in";
  if (status === 429) return "rate_limited";
  if (status === 502 || status === 503 || status === 504) return "provider_unavailable";
  if (status === 400 || status === 413) return "invalid_input";
  return "unknown";
}

export async function postCheckout(request: CheckoutRequest): Promise<CheckoutAnswer> {
  let res: Response;
  try {
    res = await fetch("/api/checkout", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request),
    });
  } catch {
    return { code: "network_error" };
  }
  const body = (await res.json().catch(() => null)) as {
    url?: unknown;
    code?: unknown;
    message?: unknown;
    error?: unknown;
    field?: unknown;
  } | null;
  if (!res.ok) {
    const message = typeof body?.message === "string" ? body.message : typeof body?.error === "string" ? body.error : undefined;
    return {
      code: isCheckoutRefusalCode(body?.code) ? body.code : codeOfStatus(res.status),
      ...(message === undefined ? {} : { message }),
      ...(typeof body?.field === "string" ? { field: body.field } : {}),
    };
  }
  // Same-site paths (local provider) or Stripe's https pages; anything else is not followed.
  if (typeof body?.url !== "string" || !(body.url.startsWith("/") || body.url.startsWith("https://"))) {
    return { code: "no_checkout_url" };
  }
  if (body.url.startsWith("//")) return { code: "no_checkout_url" };
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
