import type * as React from "react";
import { PRIVACY_PATH, TERMS_PATH } from "~/catalogue/legal";

const linkClass = "font-medium underline underline-offset-2";

/**
 * A link to a legal page beside a form: in a new tab, so what was typed in the form stays there.
 */
export function LegalLink({ to, children, className }: { to: string; children: React.ReactNode; className?: string }) {
  return (
    <a href={to} target="_blank" rel="noopener" className={className ?? linkClass}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/**
 * The line under a form that collects personal data: what submitting it agrees to, with both
 * documents a click away. `action` completes "By ... you agree".
 */
export function LegalNotice({ action, className }: { action: string; className?: string }) {
  return (
    <p className={className ?? "text-xs text-muted-foreground"}>
      By {action} you agree to our <LegalLink to={TERMS_PATH}>Terms of Service</LegalLink> and confirm you have read our{" "}
      <LegalLink to={PRIVACY_PATH}>Privacy Policy</LegalLink>.
    </p>
  );
}
