import { signInPath, type SignInReason } from "~/lib/auth-messages";

// The session check and the provider re-sync, for the dashboard's billing pages and the public return
// pages alike: kept apart from the dashboard's checkout hooks so a return page does not load their
// toasts.

/** An expired session: sign in again and come back to this page; `reason` makes /auth say why. */
export function sendToSignIn(reason?: SignInReason) {
  window.location.assign(signInPath(window.location.pathname, reason));
}

export interface SyncResult {
  ok: boolean;
  /** The session has ended: the browser is already on its way to the sign-in page. */
  signedOut: boolean;
  /** Status of the returned-from order ('paid', 'pending', …) when a session id was sent. */
  orderStatus: string | null;
}

/**
 * POST /api/billing/sync (the spec's check-subscription): re-reads the subscription from the
 * payment provider; with the checkout's session id, settles that order if its event is late.
 * A 401 sends the customer to sign in.
 */
export async function syncSubscription(sessionId?: string | null): Promise<SyncResult> {
  const failed = { ok: false, signedOut: false, orderStatus: null };
  try {
    const res = await fetch("/api/billing/sync", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(sessionId ? { sessionId } : {}),
    });
    if (res.status === 401) {
      sendToSignIn();
      return { ...failed, signedOut: true };
    }
    // Only the endpoint's own answer counts: a redirect followed to some page (200) is not a sync.
    if (!res.ok || res.redirected) return failed;
    const body = (await res.json().catch(() => null)) as { subscription?: unknown; order?: { status?: unknown } | null } | null;
    if (!body || typeof body.subscription !== "object" || body.subscription === null) return failed;
    return { ok: true, signedOut: false, orderStatus: typeof body.order?.status === "string" ? body.order.status : null };
  } catch {
    return failed;
  }
}
