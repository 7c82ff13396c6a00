import { Action, EmailLayout, P } from "./layout";
import { template } from "./template";

/** Something that needs an operator (a dispute opened or lost): the notice's own words. */
export const operatorNotice = template<{ heading: string; text: string }>({
  required: true,
  subject: ({ heading }) => heading,
  body: ({ heading, text, siteUrl }) => (
    <EmailLayout preview={heading} heading={heading} siteUrl={siteUrl}>
      {text.split(/\n{2,}/).map((paragraph, i) => (
        <P key={i}>{paragraph}</P>
      ))}
      <Action href={`${siteUrl}/admin`}>Open the admin console</Action>
    </EmailLayout>
  ),
});
