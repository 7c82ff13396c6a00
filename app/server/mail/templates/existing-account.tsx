import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

/** Sign-up with a taken address: the owner is told, the visitor learns nothing (docs/decisions/0006-accounts.md). */
export const existingAccount = template<{ signInUrl: string }>({
  required: true,
  subject: () => "You already have an account",
  body: ({ signInUrl, siteUrl }) => (
    <EmailLayout preview="Someone tried to sign up with this address." heading="You already have an account" siteUrl={siteUrl}>
      <P>Someone tried to create an AI Automation Apps account with this email address, which already has one.</P>
      <Action href={signInUrl}>Sign in</Action>
      <P>Forgot your password? Ask for a new one at {siteUrl}/auth?tab=reset. If it wasn&apos;t you, ignore this email.</P>
    </EmailLayout>
  ),
});
