import type { FormEvent, ReactNode } from "react";
import type { AppPricingTab } from "~/catalogue/pricing";
import { TrialSignInFields } from "./trial-sign-in";

export interface TrialFormProps {
  appId: number;
  tab: AppPricingTab;
  /** From the loader. Anonymous renders are the only ones the page cache keeps (ADR 0015), so the
   * stored HTML always holds the /auth form and never this visitor's checkout form. */
  signedIn: boolean;
  /** A failed no-JavaScript checkout of this app (the action's answer), shown under the button. */
  error?: string | null;
  className?: string;
  /** Once hydrated, the page takes the click over (ADR 0016: until then the form does the work). */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/**
 * The form around a "Start 3-Day Trial" button on /apps, for a click before hydration or without
 * JavaScript. Signed out: a GET to /auth, which says why and comes back. Signed in: a POST of what
 * is bought (app id and tab, never an amount) to this page's action, which prices it on the server
 * and redirects to the checkout; without an action address the POST keeps the page's query, where a
 * failure renders and where Sign In returns if the session ended meanwhile.
 */
export function TrialForm({ appId, tab, signedIn, error, className, onSubmit, children }: TrialFormProps) {
  if (!signedIn) {
    return (
      <form action="/auth" method="get" className={className} onSubmit={onSubmit}>
        <TrialSignInFields />
        {children}
      </form>
    );
  }
  return (
    <form method="post" className={className} onSubmit={onSubmit}>
      <input type="hidden" name="appId" value={appId} />
      <input type="hidden" name="tab" value={tab} />
      {children}
      {error && (
        <p role="alert" className="mt-2 text-center text-sm font-medium text-destructive" data-testid="trial-error">
          {error}
        </p>
      )}
    </form>
  );
}
