import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

/** The steps /distributor-success promises, training access within 24 hours first. */
export const distributorWelcome = template<{ fullName?: string | null }>({
  required: true,
  subject: () => "Welcome to the AI Distributor Program!",
  body: ({ fullName, siteUrl }) => (
    <EmailLayout
      preview="Payment confirmed. Training access follows within 24 hours."
      heading={fullName ? `Welcome aboard, ${fullName}!` : "Welcome aboard!"}
      siteUrl={siteUrl}
    >
      <P>1. Payment confirmed: your setup fee and first month are processed.</P>
      <P>2. Training access: you get your training portal login by email within 24 hours.</P>
      <P>3. Territory assignment: our team contacts you about your exclusive territory within 48 hours.</P>
      <P>4. Start earning.</P>
      <Action href={`${siteUrl}/dashboard`}>Open your dashboard</Action>
    </EmailLayout>
  ),
});
