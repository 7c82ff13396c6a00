import { Action, EmailLayout, Facts, P, when } from "./layout";
import { template } from "./template";

export const subscriptionCancelled = template<{ itemName: string; endsAt?: Date | string | null }>({
  required: true,
  subject: ({ itemName }) => `Your ${itemName} subscription is cancelled`,
  body: ({ itemName, endsAt, siteUrl, timeZone }) => (
    <EmailLayout preview={`${itemName} is cancelled; no further charges.`} heading="Subscription cancelled" siteUrl={siteUrl}>
      <P>Your {itemName} subscription is cancelled. You will not be charged for it again.</P>
      {endsAt ? <Facts rows={[["Access ends", when(endsAt, timeZone)]]} /> : null}
      <P>Changed your mind? You can subscribe again at any time.</P>
      <Action href={`${siteUrl}/dashboard/billing`}>Open billing</Action>
    </EmailLayout>
  ),
});
