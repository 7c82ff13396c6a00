import { Loader2, Send } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { Button } from "~/components/ui/button";
import { answerBody, answerTicket } from "~/server/admin/answer-ticket.server";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { getTicketDetail } from "~/server/admin/ticket-detail.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/ticket";
import { ActionAnswer } from "~/components/admin/ActionAnswer";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `Ticket #${loaderData.ticket.id} | Operations` }, { name: "robots", content: "noindex" }];

/** A ticket number as the database has it (a positive 32-bit integer), or null. */
const ticketId = (value: string | undefined) => {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
};

/** /admin/tickets/:id — the customer's message, the answers so far, and the answer form (audited, mailed). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const id = ticketId(params.id);
  const detail = id ? await getTicketDetail(db(), id) : null;
  if (!detail) throw data(null, { status: 404 });
  return { ...detail, timeZone: await consoleTimeZone(request, me) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireOperator(request);
  const id = ticketId(params.id);
  if (!id) throw data(null, { status: 404 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data({ ok: false as const, message: "The form could not be read." }, { status: 400 });
  }
  if (form.get("intent") !== "answer-ticket")
    return data({ ok: false as const, message: "Unknown or invalid request." }, { status: 400 });
  const body = answerBody.safeParse(form.get("body") ?? "");
  if (!body.success)
    return data({ ok: false as const, message: body.error.issues[0]?.message ?? "Write the answer." }, { status: 400 });
  const result = await answerTicket(db(), { id: me.id, email: me.email }, id, body.data);
  if (!result.ok) throw data(null, { status: 404 });
  return data({ ok: true as const, message: "Answer sent. The customer sees it on their support page and by email." });
}

export const ErrorBoundary = AdminErrorBoundary;

export default function AdminTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { ticket, answers, audit } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <AdminShell
      title={`Ticket #${ticket.id}: ${ticket.subject}`}
      actions={<Status value={ticket.status} />}
      timeZone={loaderData.timeZone}
    >
      <Panel id="ticket" title="From the customer">
        <Fields
          items={[
            [
              "Customer",
              <Link
                key="c"
                to={`/admin/customers/${encodeURIComponent(ticket.userId)}`}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {ticket.email}
              </Link>,
            ],
            ["Category", ticket.category],
            ["Opened", <LocalDateTime key="o" iso={ticket.createdAt} />],
          ]}
        />
        <p className="mt-4 whitespace-pre-line break-words rounded bg-muted p-3 text-sm">{ticket.message}</p>
      </Panel>
      <Panel id="answers" title="Answers">
        {answers.length === 0 ? (
          <p className="text-sm text-muted-foreground">Not answered yet.</p>
        ) : (
          <ol className="space-y-3" aria-label="Answers">
            {answers.map((a) => (
              <li key={a.id} className="rounded-lg border-l-4 border-primary bg-muted/50 p-3 text-sm">
                <p className="text-xs text-muted-foreground">
                  {a.operatorEmail ?? "A former operator"} · <LocalDateTime iso={a.createdAt} />
                </p>
                <p className="mt-1 whitespace-pre-line break-words">{a.body}</p>
              </li>
            ))}
          </ol>
        )}
        <Form key={answers.length} method="post" className="mt-6 grid gap-2" aria-label="Answer the ticket">
          <input type="hidden" name="intent" value="answer-ticket" />
          <label htmlFor="answer-body" className="text-sm font-medium">
            Your answer (emailed to {ticket.email} as “Re: {ticket.subject}”)
          </label>
          <textarea
            id="answer-body"
            name="body"
            required
            minLength={2}
            maxLength={5000}
            rows={6}
            aria-invalid={actionData && !actionData.ok ? true : undefined}
            aria-describedby={actionData ? "answer-result" : undefined}
            className="rounded-md border border-input bg-background p-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          {actionData ? (
            <ActionAnswer id="answer-result" ok={actionData.ok}>
              {actionData.message}
            </ActionAnswer>
          ) : null}
          <div>
            <Button type="submit" size="sm" disabled={busy}>
              {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Send aria-hidden />}
              {busy ? "Sending…" : "Send answer"}
            </Button>
          </div>
        </Form>
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={audit} />
      </Panel>
    </AdminShell>
  );
}
