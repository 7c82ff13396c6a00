import { Action, EmailLayout, Facts, P } from "./layout";
import { template } from "./template";

/** To every operator: someone asked for a callback. */
export const newLeadAlert = template<{
  name: string;
  email: string;
  phone: string;
  company?: string | null;
  projectType?: string | null;
  budget?: string | null;
  timeframe?: string | null;
  preferredTime?: string | null;
  message?: string | null;
}>({
  required: true,
  subject: ({ name }) => `New lead: ${name}`,
  body: (l) => (
    <EmailLayout preview={`${l.name} asked for a callback.`} heading="New callback request" siteUrl={l.siteUrl}>
      <Facts
        rows={(
          [
            ["Name", l.name],
            ["Email", l.email],
            ["Phone", l.phone],
            ["Company", l.company],
            ["Project", l.projectType],
            ["Budget", l.budget],
            ["Timeframe", l.timeframe],
            ["Preferred time", l.preferredTime],
          ] as [string, string | null | undefined][]
        ).filter((r): r is [string, string] => !!r[1])}
      />
      {l.message ? <P>{l.message}</P> : null}
      <Action href={`${l.siteUrl}/admin`}>Open the leads</Action>
    </EmailLayout>
  ),
});
