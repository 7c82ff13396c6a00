import { data, redirect } from "react-router";
import { signInPath, type SignInReason } from "~/lib/auth-messages";
import type { CheckoutRefusal } from "~/lib/checkout-codes";
import { getUser, safeNext } from "~/server/auth/session.server";
import { refusalHeaders, startCheckout } from "~/server/billing/start-checkout.server";
import { db } from "~/server/db/client.server";
import { clientIp } from "~/server/http/client-ip.server";

/**
 * The no-JavaScript path of a checkout button (docs/decisions/0009): a plain POST form to the page's
 * own action. It goes through the same `startCheckout` as POST /api/checkout (same strict schema,
 * same limits, same pricing), then the browser is redirected to the hosted page in the same tab.
 * With JavaScript the page never submits the form: it calls `startCheckout()` in the browser and
 * opens a new tab.
 */
export interface FormCheckoutFailure extends CheckoutRefusal {
  /** The message again, under the name the JSON answer also carries. */
  error: string;
  status: number;
  /** What the page passed in to know which form failed (e.g. the plan id). */
  context?: Record<string, string>;
}

export async function checkoutFromForm(
  request: Request,
  body: Record<string, unknown>,
  {
    signInNext,
    signInReason,
    context,
  }: {
    signInNext: string;
    /** The note /auth shows when the session has ended (the JS path shows the same one). */
    signInReason?: SignInReason;
    context?: Record<string, string>;
  },
) {
  const user = await getUser(request);
  if (!user) throw redirect(signInPath(safeNext(signInNext, "/"), signInReason));
  const started = await startCheckout(db(), user, body, { ip: clientIp(request) });
  if ("refused" in started) {
    const { refused, status } = started;
    return data<FormCheckoutFailure>(
      { ...refused, error: refused.message, status, context },
      { status, headers: refusalHeaders(started) },
    );
  }
  throw redirect(started.url);
}

/** A form field as a trimmed string, or undefined when absent or empty. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}
