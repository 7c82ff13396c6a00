import { Action, EmailLayout, Facts, P, money } from "./layout";
import { template } from "./template";

export const commissionEarned = template<{ amount: number; currency?: string }>({
  required: false,
  subject: ({ amount, currency }) => `You earned a ${money(amount, currency)} commission`,
  body: ({ amount, currency, siteUrl }) => (
    <EmailLayout preview="A customer you referred made a payment." heading="You earned a commission" siteUrl={siteUrl} optional>
      <P>A customer you referred made a payment, and 30% of it is yours.</P>
      <Facts rows={[["Commission", money(amount, currency)]]} />
      <Action href={`${siteUrl}/affiliate-dashboard`}>See your earnings</Action>
    </EmailLayout>
  ),
});
