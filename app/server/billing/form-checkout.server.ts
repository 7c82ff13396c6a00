import { data, redirect } from "react-router";
import { signInPath, type SignInReason } from "~/lib/auth-messages";
import { checkoutRequestSchema } from "~/lib/checkout-request";
import { getUser, safeNext } from "~/server/auth/session.server";
import { CheckoutError, retryAfterHeaders } from "~/server/billing/checkout.server";
import { startCheckoutWithinLimits } from "~/server/billing/start-checkout.server";
import { db } from "~/server/db/client.server";
import { clientIp } from "~/server/http/client-ip.server";

/**
 * The no-JavaScript path of a checkout button (docs/decisions/0009): a plain POST form to the page's
 * own action. It is validated by the same strict schema as POST /api/checkout, counted against the
 * same limits and priced by the same `createCheckout`, then the browser is redirected to the hosted
 * page in the same tab. With JavaScript the page never submits the form: it calls `startCheckout()`
 * and opens a new tab.
 */
export interface FormCheckoutFailure {
  error: string;
  status: number;
  field?: string;
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
  const parsed = checkoutRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return data<FormCheckoutFailure>(
      { error: issue?.message ?? "Invalid checkout request", status: 400, field: issue?.path.join(".") || undefined, context },
      { status: 400 },
    );
  }
  let url: string;
  try {
    url = (await startCheckoutWithinLimits(db(), user, parsed.data, { ip: clientIp(request) })).url;
  } catch (error) {
    if (error instanceof CheckoutError)
      return data<FormCheckoutFailure>(
        { error: error.message, status: error.status, context },
        { status: error.status, headers: retryAfterHeaders(error) },
      );
    throw error;
  }
  throw redirect(url);
}

/** A form field as a trimmed string, or undefined when absent or empty. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}
