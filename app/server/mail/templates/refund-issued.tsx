import { Action, EmailLayout, Facts, P, money } from "./layout";
import { template } from "./template";

export const refundIssued = template<{ itemName: string; amount: number; currency?: string }>({
  required: true,
  subject: ({ itemName }) => `Refund issued for ${itemName}`,
  body: ({ itemName, amount, currency, siteUrl }) => (
    <EmailLayout
      preview={`${money(amount, currency)} is on its way back to your card.`}
      heading="Your refund is on its way"
      siteUrl={siteUrl}
    >
      <P>We refunded your payment for {itemName}.</P>
      <Facts rows={[["Refunded", money(amount, currency)]]} />
      <P>Refunds reach your card within 5 to 10 business days, depending on your bank.</P>
      <Action href={`${siteUrl}/dashboard/billing`}>See billing history</Action>
    </EmailLayout>
  ),
});
