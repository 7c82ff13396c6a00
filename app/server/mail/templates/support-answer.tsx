import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

/** An operator answered the customer's support ticket. */
export const supportAnswer = template<{ ticketSubject: string; answer: string; ticketUrl?: string | null }>({
  required: true,
  subject: ({ ticketSubject }) => `Re: ${ticketSubject}`,
  body: ({ ticketSubject, answer, ticketUrl, siteUrl }) => (
    <EmailLayout preview="Our support team answered your ticket." heading="We answered your ticket" siteUrl={siteUrl}>
      <P>Your ticket: {ticketSubject}</P>
      {answer.split(/\n{2,}/).map((paragraph, i) => (
        <P key={i}>{paragraph}</P>
      ))}
      <Action href={ticketUrl ?? `${siteUrl}/dashboard/support`}>See the ticket</Action>
    </EmailLayout>
  ),
});
