import { SIGN_IN_REASON_TRIAL } from "~/components/auth/messages";

/**
 * Sign In for a signed-out "Start 3-Day Trial" on /apps: `reason` makes /auth say why, `next`
 * brings the visitor back afterwards. One address for the hydrated click and the no-JavaScript form.
 */
export function trialSignInHref(back: string): string {
  return `/auth?reason=${SIGN_IN_REASON_TRIAL}&next=${encodeURIComponent(back)}`;
}

/** The same two fields in a GET form to /auth (what the trial buttons do before hydration). */
export function TrialSignInFields() {
  return (
    <>
      <input type="hidden" name="reason" value={SIGN_IN_REASON_TRIAL} />
      <input type="hidden" name="next" value="/apps" />
    </>
  );
}
