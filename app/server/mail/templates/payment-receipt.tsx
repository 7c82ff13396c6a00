import { Action, EmailLayout, Facts, P, money, when } from "./layout";
import { template } from "./template";

export const paymentReceipt = template<{
  itemName: string;
  amount: number;
  currency?: string;
  paidAt: Date | string;
  receiptId: number;
}>({
  required: true,
  subject: ({ itemName }) => `Receipt for ${itemName}`,
  body: ({ itemName, amount, currency, paidAt, receiptId, siteUrl, timeZone }) => (
    <EmailLayout
      preview={`${money(amount, currency)} received. Thank you!`}
      heading="Thank you for your payment"
      siteUrl={siteUrl}
    >
      <P>We received your payment for {itemName}.</P>
      <Facts
        rows={[
          ["Amount", money(amount, currency)],
          ["Paid on", when(paidAt, timeZone)],
          ["Receipt", `#${receiptId}`],
        ]}
      />
      <Action href={`${siteUrl}/dashboard/billing/receipts/${receiptId}`}>View your receipt</Action>
    </EmailLayout>
  ),
});
