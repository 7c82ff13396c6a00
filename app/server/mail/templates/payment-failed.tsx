import { Action, EmailLayout, Facts, P, money, when } from "./layout";
import { template } from "./template";

/** A declined checkout, a held payment that could not be captured, or a renewal the card refused. */
export const paymentFailed = template<{
  itemName: string;
  amount: number;
  currency?: string;
  retryPath?: string;
  reason?: string | null;
  /**
   * A subscription's renewal the card refused (Stripe's invoice.payment_failed): the fix is a new
   * card in Manage Billing, and Stripe tries again by itself at `nextAttemptAt` (null: no more tries).
   */
  renewal?: { nextAttemptAt: Date | string | null };
}>({
  required: true,
  subject: ({ itemName }) => `Payment failed for ${itemName}`,
  body: ({ itemName, amount, currency, retryPath, reason, renewal, siteUrl, timeZone }) =>
    renewal ? (
      <EmailLayout
        preview="Your card was refused for your renewal. Update it to keep your subscription."
        heading="Your renewal payment did not go through"
        siteUrl={siteUrl}
      >
        <P>We could not charge your card for the renewal of {itemName}. Nothing was charged.</P>
        <Facts
          rows={[
            ["Amount", money(amount, currency)],
            ...(reason ? ([["Reason", reason]] as [string, string][]) : []),
            ...(renewal.nextAttemptAt ? ([["Next attempt", when(renewal.nextAttemptAt, timeZone)]] as [string, string][]) : []),
          ]}
        />
        <P>
          What to do: open Billing in your dashboard, choose Manage Billing and update your card (or add another one).{" "}
          {renewal.nextAttemptAt
            ? "We charge the new card at the next attempt; if every attempt fails, the subscription ends."
            : "This was the last automatic attempt: update your card there and open a support ticket, and we will settle the payment with you."}
        </P>
        <Action href={`${siteUrl}${retryPath ?? "/dashboard/billing"}`}>Update your card</Action>
        <P>Need help? Open a ticket on the support page of your dashboard.</P>
      </EmailLayout>
    ) : (
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
