import { Action, EmailLayout, Facts, P, when } from "./layout";
import { template } from "./template";

export const trialEnding = template<{ itemName: string; endsAt: Date | string }>({
  required: false,
  subject: () => "Your free trial ends tomorrow",
  body: ({ itemName, endsAt, siteUrl, timeZone }) => (
    <EmailLayout
      preview={`${itemName}: your trial ends ${when(endsAt, timeZone)}.`}
      heading="Your free trial ends tomorrow"
      siteUrl={siteUrl}
      optional
    >
      <P>Your free trial of {itemName} ends in about a day.</P>
      <Facts rows={[["Trial ends", when(endsAt, timeZone)]]} />
      <P>Choose a plan to keep your automations running without a break.</P>
      <Action href={`${siteUrl}/dashboard/billing`}>Choose a plan</Action>
    </EmailLayout>
  ),
});
