import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { CatalogueApp } from "~/catalogue/apps";
import type { AppPricingTab } from "~/catalogue/pricing";
import type { Notice } from "~/components/LazyToaster";
import { APPS_SIGN_IN_TEXT, checkoutRefusalText, INVALID_APP_DATA, refusalLine } from "~/components/checkout/messages";
import { startCheckout, type CheckoutAnswer } from "~/lib/checkout-client";
import { trialSignInHref } from "./trial-sign-in";

/** The check before any request, for a visitor the page already knows is signed out (spec section 8). */
const AUTH_REQUIRED = ["Authentication Required", APPS_SIGN_IN_TEXT] as const;

/** The toast lives on this page, so leaving for /auth waits until it can be read. */
const AUTH_REDIRECT_DELAY_MS = 1500;

type CheckoutOutcome = { url: string } | { notice: readonly [string, string?]; toAuth?: boolean };

/** The server's answer as the spec's section 8 notice; a session that has ended goes on to /auth. */
function outcomeOf(answer: CheckoutAnswer): CheckoutOutcome {
  if ("url" in answer) return answer;
  const { title, description } = checkoutRefusalText(answer, "apps");
  return { notice: [title, description], toAuth: answer.code === "not_signed_in" };
}

/** The same messages inline, for a checkout that failed without JavaScript (no toast to show them). */
export function trialFailureText(failure: { code: string; message?: string }): string {
  return refusalLine(checkoutRefusalText(failure, "apps"));
}

/**
 * "Start 3-Day Trial" once hydrated (spec section 4), on /apps and on an app's own page: in
 * progress -> signed-in check -> POST /api/checkout with the app id and tab (the server prices it)
 * -> the hosted checkout, or the refusal as a toast; signed out, Sign In after the toast. The tab
 * is the page's pricing tab unless the button names its own (an app page has one per price).
 */
export function useAppTrial({ signedIn, tab: pageTab }: { signedIn: boolean; tab: AppPricingTab }) {
  const navigate = useNavigate();
  const [processingId, setProcessingId] = useState<number | null>(null);
  const [processingTab, setProcessingTab] = useState<AppPricingTab | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const notify = useCallback(
    (title: string, description?: string) => setNotice((n) => ({ id: (n?.id ?? 0) + 1, title, description })),
    [],
  );
  // A second click before React re-renders must not start a second checkout.
  const processing = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const startTrial = useCallback(
    (app: CatalogueApp, tab: AppPricingTab = pageTab) => {
      if (processing.current) return;
      if (!app || !Number.isInteger(app.id) || !app.name) {
        notify(INVALID_APP_DATA);
        return;
      }
      processing.current = true;
      setProcessingId(app.id);
      setProcessingTab(tab);
      const finish = () => {
        processing.current = false;
        setProcessingId(null);
        setProcessingTab(null);
      };
      const toAuth = () => {
        // Sign In repeats why, and brings the visitor back to this page afterwards.
        const back = window.location.pathname + window.location.search;
        redirectTimer.current = window.setTimeout(() => {
          finish();
          navigate(trialSignInHref(back));
        }, AUTH_REDIRECT_DELAY_MS);
      };
      if (!signedIn) {
        notify(...AUTH_REQUIRED);
        toAuth();
        return;
      }
      void startCheckout({ kind: "app", appId: app.id, tab }).then((answer) => {
        const outcome = outcomeOf(answer);
        if ("url" in outcome) {
          finish();
          return;
        }
        notify(...outcome.notice);
        if (outcome.toAuth) toAuth();
        else finish();
      });
    },
    [navigate, notify, signedIn, pageTab],
  );

  return { processingId, processingTab, notice, startTrial };
}
