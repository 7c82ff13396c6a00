import { Action, EmailLayout, Facts, P, when } from "./layout";
import { template } from "./template";

/** A free trial began: the dashboard's 7-day trial, or a subscription's or one-time build's trial. */
export const trialStarted = template<{ itemName: string; endsAt: Date | string; chargeNote?: string | null }>({
  required: true,
  subject: ({ itemName }) => `Your free trial of ${itemName} has started`,
  body: ({ itemName, endsAt, chargeNote, siteUrl, timeZone }) => (
    <EmailLayout
      preview={`Your trial runs until ${when(endsAt, timeZone)}.`}
      heading="Your free trial has started"
      siteUrl={siteUrl}
    >
      <P>Thanks for trying {itemName}. Everything it includes is open to you now.</P>
      <Facts
        rows={[
          ["Trial ends", when(endsAt, timeZone)],
          ...(chargeNote ? ([["After the trial", chargeNote]] as [string, string][]) : []),
        ]}
      />
      <Action href={`${siteUrl}/dashboard/billing`}>See your trial</Action>
      <P>You can cancel on the billing page before the trial ends and nothing is charged.</P>
    </EmailLayout>
  ),
});
