import { describe, expect, it } from "vitest";
import { CHECKOUT_REFUSAL_CODES } from "~/lib/checkout-codes";
import type { CheckoutFailureCode } from "~/lib/checkout-client";
import {
  APPS_CHECKOUT_ERROR,
  APPS_CHECKOUT_ERROR_TEXT,
  APPS_SIGN_IN_TEXT,
  CHECKOUT_FAILED,
  CHECKOUT_PAGES,
  checkoutRefusalText,
  DISTRIBUTOR_PAYMENT_FAILED,
  INVALID_APP_DATA,
  NO_CHECKOUT_URL,
  PACKAGE_CHECKOUT_FAILED,
  PAYMENT_UNAVAILABLE,
  refusalLine,
  UPGRADE_FAILED,
  type CheckoutPage,
} from "./messages";

const CLIENT_CODES: CheckoutFailureCode[] = ["network_error", "no_checkout_url", "unknown"];
const ALL_CODES: CheckoutFailureCode[] = [...CHECKOUT_REFUSAL_CODES, ...CLIENT_CODES];
const WAIT = "Too many requests. Please try again in 40 seconds.";

/** Each page's text when nothing more specific applies (spec section 8). */
const GENERIC: Record<CheckoutPage, { title: string; description?: string }> = {
  apps: { title: APPS_CHECKOUT_ERROR, description: APPS_CHECKOUT_ERROR_TEXT },
  packages: { title: PACKAGE_CHECKOUT_FAILED },
  distributor: { title: DISTRIBUTOR_PAYMENT_FAILED },
  plans: { title: CHECKOUT_FAILED },
  addons: { title: CHECKOUT_FAILED },
  scaling: { title: UPGRADE_FAILED },
};

/** The inline line of `code` on every page. */
const pages = (code: string, message?: string) =>
  Object.fromEntries(CHECKOUT_PAGES.map((page) => [page, refusalLine(checkoutRefusalText({ code, message }, page))]));
const apps = (code: string) => checkoutRefusalText({ code }, "apps");

describe("checkoutRefusalText", () => {
  it("has a text for every code on every page", () => {
    for (const page of CHECKOUT_PAGES)
      for (const code of ALL_CODES) {
        const text = checkoutRefusalText({ code, message: "server words" }, page);
        expect(text.title, `${page} ${code}`).toMatch(/\S/);
        expect(text.description ?? "none", `${page} ${code}`).toMatch(/\S/);
      }
  });

  it("falls back to the page's generic text for a code it does not know", () => {
    for (const page of CHECKOUT_PAGES) {
      expect(checkoutRefusalText({ code: "coupon_expired", message: "Your coupon expired" }, page)).toEqual(GENERIC[page]);
      expect(checkoutRefusalText({ code: "unknown" }, page)).toEqual(GENERIC[page]);
      // Names on Object.prototype are not codes either.
      expect(checkoutRefusalText({ code: "toString" }, page)).toEqual(GENERIC[page]);
    }
  });

  it("shows the server's words only for a rate limit, and the generic text when it sent none", () => {
    expect(pages("rate_limited", WAIT)).toEqual({
      apps: `${APPS_CHECKOUT_ERROR}: ${WAIT}`,
      packages: WAIT,
      distributor: WAIT,
      plans: `${CHECKOUT_FAILED}: ${WAIT}`,
      addons: `${CHECKOUT_FAILED}: ${WAIT}`,
      scaling: `${UPGRADE_FAILED}: ${WAIT}`,
    });
    for (const page of CHECKOUT_PAGES) expect(checkoutRefusalText({ code: "rate_limited" }, page)).toEqual(GENERIC[page]);
    for (const code of ALL_CODES.filter((c) => c !== "rate_limited"))
      for (const page of CHECKOUT_PAGES)
        expect(refusalLine(checkoutRefusalText({ code, message: "Secret server words" }, page))).not.toContain("Secret");
  });

  it("words each page's refusals in the spec's texts", () => {
    expect(apps("not_signed_in")).toEqual({ title: APPS_CHECKOUT_ERROR, description: APPS_SIGN_IN_TEXT });
    expect(apps("invalid_input")).toEqual({ title: INVALID_APP_DATA });
    expect(apps("unknown_item")).toEqual({ title: INVALID_APP_DATA });
    expect(apps("provider_unavailable")).toEqual({ title: APPS_CHECKOUT_ERROR, description: PAYMENT_UNAVAILABLE });
    expect(apps("no_checkout_url")).toEqual({ title: NO_CHECKOUT_URL });
    expect(apps("network_error")).toEqual(GENERIC.apps);

    expect(checkoutRefusalText({ code: "provider_unavailable" }, "packages")).toEqual({ title: PAYMENT_UNAVAILABLE });
    // The packages page's member plan is held once: its refusal says so instead of 'try again'.
    expect(checkoutRefusalText({ code: "already_owned" }, "packages")).toEqual({
      title: "This is already your plan, or its payment is on its way.",
    });
    expect(checkoutRefusalText({ code: "provider_unavailable" }, "distributor")).toEqual(GENERIC.distributor);

    for (const page of ["plans", "addons", "scaling"] as const) {
      expect(checkoutRefusalText({ code: "provider_unavailable" }, page)).toEqual({ title: PAYMENT_UNAVAILABLE });
      expect(checkoutRefusalText({ code: "network_error" }, page)).toEqual({
        ...GENERIC[page],
        description: "Check your connection and try again.",
      });
      expect(checkoutRefusalText({ code: "invalid_input" }, page)).toEqual(GENERIC[page]);
    }
    expect(refusalLine(checkoutRefusalText({ code: "already_owned" }, "addons"))).toBe(
      `${CHECKOUT_FAILED}: You already own one of these add-ons`,
    );
    expect(checkoutRefusalText({ code: "already_owned" }, "scaling")).toEqual({
      title: UPGRADE_FAILED,
      description: "This purchase has already been paid; it will appear on your account shortly.",
    });
  });
});
