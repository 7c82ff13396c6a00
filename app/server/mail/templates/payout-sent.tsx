import { Action, EmailLayout, Facts, P, money, when } from "./layout";
import { template } from "./template";

export const payoutSent = template<{ amount: number; currency?: string; sentAt: Date | string; reference?: string | null }>({
  required: true,
  subject: ({ amount, currency }) => `Payout sent: ${money(amount, currency)}`,
  body: ({ amount, currency, sentAt, reference, siteUrl, timeZone }) => (
    <EmailLayout preview="Your affiliate earnings are on their way." heading="Your payout is on its way" siteUrl={siteUrl}>
      <P>We sent your affiliate earnings.</P>
      <Facts
        rows={[
          ["Amount", money(amount, currency)],
          ["Sent on", when(sentAt, timeZone)],
          ...(reference ? ([["Reference", reference]] as [string, string][]) : []),
        ]}
      />
      <Action href={`${siteUrl}/affiliate-dashboard`}>See your earnings</Action>
    </EmailLayout>
  ),
});
