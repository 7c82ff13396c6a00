import { Action, EmailLayout, Facts, P, money, when } from "./layout";
import { template } from "./template";

/** A one-time build's payment captured at the end of its trial; it carries the receipt. */
export const buildCharged = template<{
  itemName: string;
  amount: number;
  currency?: string;
  paidAt: Date | string;
  receiptId: number;
}>({
  required: true,
  subject: ({ itemName }) => `${itemName}: payment received, your build starts`,
  body: ({ itemName, amount, currency, paidAt, receiptId, siteUrl, timeZone }) => (
    <EmailLayout
      preview={`${money(amount, currency)} charged for ${itemName}.`}
      heading="Your build starts now"
      siteUrl={siteUrl}
    >
      <P>
        Your free trial ended and the payment for {itemName} was charged. Our team starts building it now; it appears on your
        automation page.
      </P>
      <Facts
        rows={[
          ["Amount", money(amount, currency)],
          ["Charged on", when(paidAt, timeZone)],
        ]}
      />
      <Action href={`${siteUrl}/dashboard/billing/receipts/${receiptId}`}>View your receipt</Action>
    </EmailLayout>
  ),
});
