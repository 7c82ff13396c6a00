import { EmailLayout, P } from "./layout";
import { template } from "./template";

/** To the person who sent the 'Schedule AI Consultation' form. */
export const callbackAcknowledgement = template<{ firstName: string; preferredTime?: string | null }>({
  required: true,
  subject: () => "We received your consultation request",
  body: ({ firstName, preferredTime, siteUrl }) => (
    <EmailLayout
      preview="We'll contact you within 24 hours to schedule your consultation."
      heading={`Thanks, ${firstName}!`}
      siteUrl={siteUrl}
    >
      <P>We received your request for an AI consultation. We&apos;ll contact you within 24 hours to schedule it.</P>
      {preferredTime ? <P>You asked for a call: {preferredTime}.</P> : null}
      <P>In the meantime, browse ready-made apps at {siteUrl}/apps.</P>
    </EmailLayout>
  ),
});
