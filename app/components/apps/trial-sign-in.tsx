import { createContext, useContext } from "react";
import { SIGN_IN_REASON_TRIAL } from "~/lib/auth-messages";

/**
 * Sign In for a signed-out "Start 3-Day Trial" on /apps: `reason` makes /auth say why, `next`
 * brings the visitor back afterwards. One address for the hydrated click and the no-JavaScript form.
 */
export function trialSignInHref(back: string): string {
  return `/auth?reason=${SIGN_IN_REASON_TRIAL}&next=${encodeURIComponent(sameSiteBack(back))}`;
}

/** A path of this site (never `//host` or `/\host`, which browsers read as another site), else /apps. */
function sameSiteBack(back: string): string {
  return /^\/(?![/\\])/.test(back) ? back : "/apps";
}

/**
 * Where Sign In brings the visitor back to: the page's own path and query (search, industry, tab,
 * reviews), provided by the /apps page. The default keeps a card rendered on its own working.
 */
export const TrialSignInBack = createContext("/apps");

/** The same two fields in a GET form to /auth (what the trial buttons do before hydration). */
export function TrialSignInFields() {
  const back = useContext(TrialSignInBack);
  return (
    <>
      <input type="hidden" name="reason" value={SIGN_IN_REASON_TRIAL} />
      <input type="hidden" name="next" value={sameSiteBack(back)} />
    </>
  );
}
