import { SIGN_IN_REASON_TRIAL } from "~/lib/auth-messages";
import { checkoutFromForm, formText } from "./form-checkout.server";

/**
 * "Start 3-Day Trial" by a signed-in visitor before hydration or without JavaScript (TrialForm), on
 * /apps and on an app's own page: the app id and tab go through the same strict schema and pricing
 * as POST /api/checkout, then the browser is redirected to the checkout in this tab. A failure
 * renders the page with the message under the button that failed (context: app id and tab).
 */
export async function appTrialFromForm(request: Request, url: URL) {
  const form = await request.formData();
  const appId = formText(form, "appId") ?? "";
  const tab = formText(form, "tab");
  return checkoutFromForm(
    request,
    // Not a number: passed on as it came, for the schema to refuse.
    { kind: "app", appId: /^\d{1,10}$/.test(appId) ? Number(appId) : appId, tab },
    { signInNext: url.pathname + url.search, signInReason: SIGN_IN_REASON_TRIAL, context: { appId, tab: tab ?? "" } },
  );
}
