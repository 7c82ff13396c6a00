import { useEffect, useRef, useState, type MouseEvent } from "react";
import { useRevalidator, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { SignInReason } from "~/lib/auth-messages";
import { sendToSignIn, syncSubscription, type SyncResult } from "~/lib/billing-sync";
import { startCheckout } from "~/lib/checkout-client";
import { isPlainClick } from "~/lib/use-hydrated";
import type { CheckoutRequest } from "~/lib/checkout-request";
import {
  CHECKOUT_FAILED,
  checkoutRefusalText,
  PAYMENT_UNAVAILABLE,
  refusalLine,
  UPGRADE_FAILED,
  type CheckoutPage,
} from "~/components/checkout/messages";

/** Spec section 8 texts used by the billing, add-ons and scaling pages. */
export const BILLING_ERRORS = {
  checkout: CHECKOUT_FAILED,
  upgrade: UPGRADE_FAILED,
  unavailable: PAYMENT_UNAVAILABLE,
  load: "Failed to load subscription data",
  refresh: "Failed to refresh subscription status",
  portal: "Failed to open billing portal",
  addons: "Failed to load add-ons",
} as const;

export const REFRESHED = "Subscription status updated";

// The return pages use these without the dashboard's toasts (app/lib/billing-sync.ts).
export { sendToSignIn, syncSubscription, type SyncResult } from "~/lib/billing-sync";

/**
 * Toasts go through the dashboard layout's <Toaster>. A page's mount effects run before that
 * sibling has subscribed to the toast store, so toasts raised on mount wait one task.
 */
export function later(fn: () => void) {
  window.setTimeout(fn, 0);
}

/** The dashboard pages that start checkouts, as the refusal texts know them. */
export type DashboardCheckoutPage = Extract<CheckoutPage, "plans" | "addons" | "scaling">;

/**
 * One checkout at a time per page: `run(key, request)` opens the new tab in the click handler,
 * posts the request and reports failures with the spec's texts for `page`. `pending` is the key in
 * flight. `signInReason`: what /auth tells a customer whose session has ended (spec section 5).
 */
export function useCheckout(page: DashboardCheckoutPage, signInReason?: SignInReason) {
  const [pending, setPending] = useState<string | null>(null);
  const busy = useRef(false);

  async function run(key: string, request: CheckoutRequest): Promise<boolean> {
    if (busy.current) return false;
    busy.current = true;
    setPending(key);
    try {
      // Synchronous up to the first await: the tab opens while the click still counts as a gesture.
      const answer = await startCheckout(request);
      if ("url" in answer) return true;
      if (answer.code === "not_signed_in") {
        sendToSignIn(signInReason);
        return false;
      }
      const { title, description } = checkoutRefusalText(answer, page);
      toast.error(title, description ? { description } : {});
      return false;
    } finally {
      busy.current = false;
      setPending(null);
    }
  }

  return { pending, run };
}

/**
 * A checkout that failed without JavaScript (the page's action answered a FormCheckoutFailure): the
 * same text the toast shows with JavaScript, rendered inline under the button that was pressed.
 */
export function formFailureText(failure: { code: string; message?: string }, page: DashboardCheckoutPage): string {
  return refusalLine(checkoutRefusalText(failure, page));
}

/**
 * The hydrated click of a checkout button that is also a form's submit button (ADR 0016): a plain
 * click runs the new-tab flow and keeps the form from posting; before hydration, without
 * JavaScript or with a modifier key, the form posts to the page's action instead.
 */
export function checkoutClick(start: () => void) {
  return (event: MouseEvent<HTMLButtonElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    start();
  };
}

export interface ReturnToast {
  tone: "success" | "info" | "error";
  title: string;
  description?: string;
}

/**
 * The one toast of a checkout return (`?success=true`), from the re-sync's answer. Success only when
 * the sync answered and the returned-from order is paid: a failed sync, a missing or unknown session
 * id (someone opening `?success=true`) and a declined, canceled or failed order say so instead.
 * The pending wording is /payment-success's.
 */
export function returnToast(
  sync: Pick<SyncResult, "ok" | "orderStatus">,
  messages: { success: string; successDescription?: string; canceled: string },
): ReturnToast {
  if (!sync.ok) return { tone: "error", title: BILLING_ERRORS.refresh };
  switch (sync.orderStatus) {
    case "paid":
      return { tone: "success", title: messages.success, description: messages.successDescription };
    case "pending":
      return {
        tone: "info",
        title: "We're confirming your payment",
        description:
          "Thank you, we have received your order and are still confirming your payment. Refresh this page in a moment.",
      };
    case "declined":
      return {
        tone: "error",
        title: "Payment not completed",
        description: "Your payment was declined, so this order has not been paid. You can try again with another card.",
      };
    case "canceled":
      return {
        tone: "error",
        title: "Order canceled",
        description: "This order was canceled and is not active. You can start a new one at any time.",
      };
    case "failed":
      return { tone: "error", title: "Payment not completed", description: BILLING_ERRORS.unavailable };
    default:
      // No order to report on: the status was re-read, nothing more is known.
      return { tone: "info", title: REFRESHED };
  }
}

/**
 * Handles the checkout return (`?success=true&session_id=…` or `?canceled=true`): a success syncs
 * the order (a late provider event is settled now), re-reads the page and shows one toast; the
 * parameters are removed (replace, so reloading or going back does not replay them).
 */
export function useCheckoutReturn(messages: { success: string; successDescription?: string; canceled: string }) {
  const [params, setParams] = useSearchParams();
  const { revalidate } = useRevalidator();
  const outcome = params.get("success") === "true" ? "success" : params.get("canceled") === "true" ? "canceled" : null;
  const sessionId = params.get("session_id");
  const handled = useRef(false);

  useEffect(() => {
    if (!outcome || handled.current) return;
    handled.current = true;
    if (outcome === "canceled") later(() => toast(messages.canceled));
    else {
      void syncSubscription(sessionId).then(async (sync) => {
        if (sync.signedOut) return;
        await revalidate();
        const { tone, title, description } = returnToast(sync, messages);
        const options = description ? { description } : undefined;
        if (tone === "success") toast.success(title, options);
        else if (tone === "error") toast.error(title, options);
        else toast(title, options);
      });
    }
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const key of ["success", "canceled", "session_id"]) next.delete(key);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [outcome, setParams, messages, revalidate, sessionId]);
}

/**
 * The hosted checkout runs in another tab: when the customer comes back to this one, re-read the
 * page's data so what was bought there shows here.
 */
export function useRevalidateOnFocus() {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    let last = Date.now();
    const onFocus = () => {
      if (document.visibilityState !== "visible" || state !== "idle") return;
      // Focus and visibilitychange often fire together.
      if (Date.now() - last < 1000) return;
      last = Date.now();
      void revalidate();
    };
    window.addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onFocus);
    return () => {
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onFocus);
    };
  }, [revalidate, state]);
}
