import { data, Link } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { getEmailDetail } from "~/server/admin/email-detail.server";
import { retryEmailAsOperator, type RetryEmailOutcome } from "~/server/admin/retry-email-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/email";
import { RetryDelivery } from "~/components/admin/RetryDelivery";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `Email to ${loaderData.email.to} | Operations` }, { name: "robots", content: "noindex" }];

/** An outbox id as the address spells it (a serial), or null. */
const outboxId = (id: string | undefined): number | null => {
  if (!id || !/^[1-9]\d{0,9}$/.test(id)) return null;
  const n = Number(id);
  return n <= 2_147_483_647 ? n : null;
};

/** /admin/emails/:id — who an email went to, where its delivery stands, and Retry when it failed or is stuck. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const id = outboxId(params.id);
  const detail = id ? await getEmailDetail(db(), id) : null;
  if (!detail) throw data(null, { status: 404 });
  return { ...detail, timeZone: await consoleTimeZone(request, me) };
}

const ANSWERS: Record<RetryEmailOutcome, { status: number; message: string }> = {
  queued: { status: 200, message: "Email queued for another delivery attempt." },
  not_retryable: { status: 409, message: "This email cannot be retried: it is not failed or stuck, or has nothing to send." },
  no_mail_server: { status: 409, message: "No mail server is configured: emails stay in the outbox." },
  not_found: { status: 404, message: "No such email." },
};

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireOperator(request);
  const id = outboxId(params.id);
  if (!id) throw data(null, { status: 404 });
  let intent: FormDataEntryValue | null = null;
  try {
    intent = (await request.formData()).get("intent");
  } catch {
    // An unreadable body is answered below like any other bad form.
  }
  if (intent !== "retry-email") return data({ ok: false, message: "Unknown or invalid request." }, { status: 400 });
  const outcome = await retryEmailAsOperator(db(), { id: me.id, email: me.email }, id);
  if (outcome === "not_found") throw data(null, { status: 404 });
  const answer = ANSWERS[outcome];
  return data({ ok: outcome === "queued", message: answer.message }, { status: answer.status });
}

export const ErrorBoundary = AdminErrorBoundary;

export default function AdminEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { email, mailServer, audit } = loaderData;
  return (
    <AdminShell title={`Email: ${email.subject}`} actions={<Status value={email.status} />} timeZone={loaderData.timeZone}>
      <Panel id="email" title="Delivery">
        <Fields
          items={[
            [
              "To",
              <Link
                key="to"
                to={`/admin/customers?q=${encodeURIComponent(email.to)}`}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {email.to}
              </Link>,
            ],
            ["Template", email.kind ?? "—"],
            ["Status", email.status],
            ["Attempts", String(email.attempts)],
            ["Created", <LocalDateTime key="c" iso={email.createdAt} />],
            ["Sent", email.sentAt ? <LocalDateTime key="s" iso={email.sentAt} /> : "—"],
            ["Failed", email.failedAt ? <LocalDateTime key="f" iso={email.failedAt} /> : "—"],
            ["Once-per-event key", email.idempotencyKey ? <code key="k">{email.idempotencyKey}</code> : "—"],
            ["Email id", <code key="id">{email.id}</code>],
          ]}
        />
        {email.lastError ? (
          <div className="mt-4 text-sm">
            <p className="text-muted-foreground">Last error</p>
            <p className="whitespace-pre-line break-words rounded bg-muted p-3">{email.lastError}</p>
          </div>
        ) : null}
        <p className="mt-4 text-sm text-muted-foreground">
          {mailServer
            ? "The message itself is not shown here: it may hold a sign-in or password-reset link."
            : "No mail server is configured: emails stay in the outbox and are not sent."}
        </p>
        <RetryDelivery intent="retry-email" retryable={email.retryable && mailServer} answer={actionData} />
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={audit} />
      </Panel>
    </AdminShell>
  );
}
