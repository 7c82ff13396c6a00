import { Action, EmailLayout, Facts, P, money, when } from "./layout";
import { template } from "./template";

/**
 * A subscription bought with a free trial starts charging in about a day. Required: money is about
 * to move, and the customer may still cancel for nothing.
 */
export const subscriptionTrialEnding = template<{ itemName: string; amount: number; currency?: string; endsAt: Date | string }>({
  required: true,
  subject: ({ itemName }) => `${itemName}: your free trial ends tomorrow`,
  body: ({ itemName, amount, currency, endsAt, siteUrl, timeZone }) => (
    <EmailLayout
      preview={`Your subscription starts ${when(endsAt, timeZone)}: ${money(amount, currency)} a month.`}
      heading="Your free trial ends tomorrow"
      siteUrl={siteUrl}
    >
      <P>
        The free trial of your {itemName} subscription ends soon. Your card is then charged the first month, and each month after.
      </P>
      <Facts
        rows={[
          ["Monthly price", money(amount, currency)],
          ["First charge", when(endsAt, timeZone)],
        ]}
      />
      <P>Not for you? Cancel the subscription on the billing page before then and nothing is charged.</P>
      <Action href={`${siteUrl}/dashboard/billing`}>Manage your subscription</Action>
    </EmailLayout>
  ),
});
