import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

export const verification = template<{ url: string }>({
  required: true,
  subject: () => "Verify your email address",
  body: ({ url, siteUrl }) => (
    <EmailLayout
      preview="Confirm your email address to open your dashboard."
      heading="Welcome to AI Automation Apps!"
      siteUrl={siteUrl}
    >
      <P>Confirm your email address to open your dashboard.</P>
      <Action href={url}>Verify email address</Action>
      <P>The link is valid for 24 hours. If you did not sign up, ignore this email.</P>
    </EmailLayout>
  ),
});
