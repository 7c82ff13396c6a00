import { Action, EmailLayout, Facts, P, money } from "./layout";
import { template } from "./template";

/** A declined checkout, a held payment that could not be captured, or a renewal the card refused. */
export const paymentFailed = template<{
  itemName: string;
  amount: number;
  currency?: string;
  retryPath?: string;
  reason?: string | null;
}>({
  required: true,
  subject: ({ itemName }) => `Payment failed for ${itemName}`,
  body: ({ itemName, amount, currency, retryPath, reason, siteUrl }) => (
    <EmailLayout
      preview="Your card was not charged. Here is what to do."
      heading="Your payment did not go through"
      siteUrl={siteUrl}
    >
      <P>We could not charge your card for {itemName}. Nothing was charged.</P>
      <Facts rows={[["Amount", money(amount, currency)], ...(reason ? ([["Reason", reason]] as [string, string][]) : [])]} />
      <P>
        What to do: check the card details and that the card has funds, or use another card, then try again. Your bank can tell
        you why it refused the payment.
      </P>
      <Action href={`${siteUrl}${retryPath ?? "/dashboard/billing"}`}>Try again</Action>
      <P>Need help? Open a ticket on the support page of your dashboard.</P>
    </EmailLayout>
  ),
});
