import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

export const passwordReset = template<{ url: string }>({
  required: true,
  subject: () => "Reset your password",
  body: ({ url, siteUrl }) => (
    <EmailLayout preview="Reset the password of your account (valid for 1 hour)." heading="Reset your password" siteUrl={siteUrl}>
      <P>Someone asked to reset the password of your AI Automation Apps account.</P>
      <Action href={url}>Choose a new password</Action>
      <P>The link is valid for 1 hour. If it wasn&apos;t you, ignore this email: your password stays as it is.</P>
    </EmailLayout>
  ),
});
