import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

export const welcome = template<{ firstName?: string | null }>({
  required: false,
  subject: () => "Welcome to AI Automation Apps",
  body: ({ firstName, siteUrl }) => (
    <EmailLayout
      preview="Your account is ready: start your 7-day free trial."
      heading={firstName ? `Welcome, ${firstName}!` : "Welcome!"}
      siteUrl={siteUrl}
      optional
    >
      <P>Your email address is confirmed and your account is ready.</P>
      <P>Start your 7-day free trial from the dashboard, browse the 181 ready-made apps, or book your onboarding call.</P>
      <Action href={`${siteUrl}/dashboard`}>Open your dashboard</Action>
    </EmailLayout>
  ),
});
