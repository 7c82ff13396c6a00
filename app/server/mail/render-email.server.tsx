import { render, toPlainText } from "@react-email/render";
import { EMAILS, type EmailKind, type EmailProps } from "./templates";
import type { Common, EmailTemplate } from "./templates/template";

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * One email's subject, HTML part and plain-text part. The text part is derived from the HTML
 * (links as "label URL", images and the inbox preview left out), so the two never say different
 * things. React escapes every value, so a name or message typed by a visitor cannot add markup.
 */
export async function renderEmail<K extends EmailKind>(kind: K, props: EmailProps<K>, common: Common): Promise<RenderedEmail> {
  const email = EMAILS[kind] as unknown as EmailTemplate<EmailProps<K>>;
  const html = await render(email.body({ ...props, ...common }));
  const text = toPlainText(html, { selectors: [{ selector: "[data-skip-in-text=true]", format: "skip" }] }).trim();
  return { subject: email.subject(props), html, text };
}

/** Whether the email goes out whatever the recipient's notification settings say. */
export function isRequired(kind: EmailKind): boolean {
  return EMAILS[kind].required;
}
