import type { CheckoutFailure } from "~/lib/checkout-client";

/** Texts the checkout pages show when starting a checkout fails (spec section 8, docs/decisions/0009). */
export const PAYMENT_UNAVAILABLE = "Payment system is currently unavailable. Please try again later.";
export const PACKAGE_CHECKOUT_FAILED = "We couldn't start your checkout. Please try again.";
/** Spec section 8, distributor payment. */
export const DISTRIBUTOR_PAYMENT_FAILED = "Failed to initiate payment process. Please try again.";
/** Spec section 8, the billing and add-ons pages' checkout and the scaling page's upgrade. */
export const CHECKOUT_FAILED = "Failed to start checkout process";
export const UPGRADE_FAILED = "Failed to start upgrade process";
/** Spec section 8, apps checkout. */
export const APPS_CHECKOUT_ERROR = "Checkout Error";
export const APPS_CHECKOUT_ERROR_TEXT = "There was an issue creating your checkout session. Please try again.";
export const APPS_SIGN_IN_TEXT = "Please sign in to start your free trial.";
export const INVALID_APP_DATA = "Invalid app data";
export const NO_CHECKOUT_URL = "No checkout URL received";
const CHECK_CONNECTION = "Check your connection and try again.";
const ADDON_OWNED = "You already own one of these add-ons";
const ALREADY_PAID = "This purchase has already been paid; it will appear on your account shortly.";
const MEMBER_PLAN_HELD = "This is already your plan, or its payment is on its way.";
const INCLUDED_IN_PLAN = "Your current plan already includes this tier's contacts.";

/** The sign-in page, coming back to `path` (a same-site path with its query). */
export function signInHref(path: string): string {
  return `/auth?next=${encodeURIComponent(path)}`;
}

/** Where a checkout was started: each page words its failures in the spec's texts for that page. */
export const CHECKOUT_PAGES = ["apps", "packages", "distributor", "plans", "addons", "scaling"] as const;
export type CheckoutPage = (typeof CHECKOUT_PAGES)[number];

/** What the page shows: a toast's title and description, or one line inline (refusalLine). */
export interface RefusalText {
  title: string;
  description?: string;
}

type Texts = Record<CheckoutFailure["code"], RefusalText> & { generic: RefusalText };

/** A rate limit's answer says how long to wait; without one the page's generic text stands. */
const wait = (failure: { message?: string }) => failure.message?.trim() || undefined;

function textsFor(page: CheckoutPage, failure: { message?: string }): Texts {
  switch (page) {
    case "apps": {
      const error = (description: string): RefusalText => ({ title: APPS_CHECKOUT_ERROR, description });
      const generic = error(APPS_CHECKOUT_ERROR_TEXT);
      return {
        generic,
        invalid_input: { title: INVALID_APP_DATA },
        unknown_item: { title: INVALID_APP_DATA },
        // The session ended after the page loaded: the generic title with the sign-in text.
        not_signed_in: error(APPS_SIGN_IN_TEXT),
        method_not_allowed: generic,
        already_owned: generic,
        included_in_plan: generic,
        rate_limited: error(wait(failure) ?? APPS_CHECKOUT_ERROR_TEXT),
        provider_unavailable: error(PAYMENT_UNAVAILABLE),
        network_error: generic,
        no_checkout_url: { title: NO_CHECKOUT_URL },
        unknown: generic,
      };
    }
    case "packages":
    case "distributor": {
      const generic = { title: page === "packages" ? PACKAGE_CHECKOUT_FAILED : DISTRIBUTOR_PAYMENT_FAILED };
      return {
        generic,
        invalid_input: generic,
        unknown_item: generic,
        not_signed_in: generic,
        method_not_allowed: generic,
        // The packages page's member plan (Growth, Pro) is held once, like a billing plan.
        already_owned: page === "packages" ? { title: MEMBER_PLAN_HELD } : generic,
        included_in_plan: generic,
        rate_limited: { title: wait(failure) ?? generic.title },
        // The distributor page keeps the spec's one payment failure text.
        provider_unavailable: page === "packages" ? { title: PAYMENT_UNAVAILABLE } : generic,
        network_error: generic,
        no_checkout_url: generic,
        unknown: generic,
      };
    }
    case "plans":
    case "addons":
    case "scaling": {
      const title = page === "scaling" ? UPGRADE_FAILED : CHECKOUT_FAILED;
      const generic = { title };
      const limited = wait(failure);
      return {
        generic,
        invalid_input: generic,
        unknown_item: generic,
        not_signed_in: generic,
        method_not_allowed: generic,
        already_owned: { title, description: page === "addons" ? ADDON_OWNED : ALREADY_PAID },
        included_in_plan: { title, description: INCLUDED_IN_PLAN },
        rate_limited: limited ? { title, description: limited } : generic,
        provider_unavailable: { title: PAYMENT_UNAVAILABLE },
        network_error: { title, description: CHECK_CONNECTION },
        no_checkout_url: generic,
        unknown: generic,
      };
    }
  }
}

/**
 * The one mapping from a failed checkout's code to what `page` shows (spec section 8). Decided on
 * the code alone: the server's message is shown only for `rate_limited`, where it says how long to
 * wait. A code this build does not know gets the page's generic text.
 */
export function checkoutRefusalText(failure: { code: string; message?: string }, page: CheckoutPage): RefusalText {
  const texts = textsFor(page, failure);
  return Object.hasOwn(texts, failure.code) ? texts[failure.code as keyof Texts] : texts.generic;
}

/** A refusal as one line, for a message rendered inline under a button or form. */
export function refusalLine({ title, description }: RefusalText): string {
  return description ? `${title}: ${description}` : title;
}
