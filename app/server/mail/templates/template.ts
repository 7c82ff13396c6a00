import type { ReactElement } from "react";

/** What every template gets besides its own props. */
export interface Common {
  /** The site's address, base of every link. */
  siteUrl: string;
  /** The recipient's time zone, for dates (UTC when unknown). */
  timeZone?: string | null;
}

/**
 * One transactional email: its subject, its body (HTML; the text part is derived from it), and
 * whether it goes out whatever the recipient's notification settings say (docs/decisions/0072-transactional-emails.md).
 */
export interface EmailTemplate<P> {
  required: boolean;
  subject: (props: P) => string;
  body: (props: P & Common) => ReactElement;
}

export function template<P>(t: EmailTemplate<P>): EmailTemplate<P> {
  return t;
}
