import { Action, EmailLayout, Facts, P, money, when } from "./layout";
import { template } from "./template";

/** A one-time build's held payment is captured in about a day (docs/decisions/0045-trial-then-capture.md). */
export const chargeComing = template<{ itemName: string; amount: number; currency?: string; captureAt: Date | string }>({
  required: true,
  subject: ({ itemName }) => `${itemName}: your card is charged tomorrow`,
  body: ({ itemName, amount, currency, captureAt, siteUrl, timeZone }) => (
    <EmailLayout
      preview={`${money(amount, currency)} is charged ${when(captureAt, timeZone)}.`}
      heading="Your trial ends tomorrow"
      siteUrl={siteUrl}
    >
      <P>
        The free trial of your {itemName} build ends soon. The payment held on your card is then charged and the build starts.
      </P>
      <Facts
        rows={[
          ["Amount", money(amount, currency)],
          ["Charged on", when(captureAt, timeZone)],
        ]}
      />
      <P>Changed your mind? Cancel the trial on the billing page before then and nothing is charged.</P>
      <Action href={`${siteUrl}/dashboard/billing`}>Manage your trial</Action>
    </EmailLayout>
  ),
});
