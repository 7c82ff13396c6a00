import { data } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { noControlChars } from "~/lib/text";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { getLeadDetail } from "~/server/admin/lead-detail.server";
import { retryLeadAsOperator } from "~/server/admin/retry-lead-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/lead";
import { RetryDelivery } from "~/components/admin/RetryDelivery";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `Lead ${loaderData.lead.email} | Operations` }, { name: "robots", content: "noindex" }];

const validId = (id: string | undefined): id is string => !!id && id.length <= 100 && noControlChars(id);

/** /admin/leads/:id — what the visitor sent, consent, each delivery attempt and its answer, and Retry. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const detail = validId(params.id) ? await getLeadDetail(db(), params.id) : null;
  if (!detail) throw data(null, { status: 404 });
  return { ...detail, timeZone: await consoleTimeZone(request, me) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireOperator(request);
  if (!validId(params.id)) throw data(null, { status: 404 });
  let intent: FormDataEntryValue | null = null;
  try {
    intent = (await request.formData()).get("intent");
  } catch {
    // An unreadable body is answered below like any other bad form.
  }
  if (intent !== "retry-lead") return data({ ok: false, message: "Unknown or invalid request." }, { status: 400 });
  return (await retryLeadAsOperator(db(), { id: me.id, email: me.email }, params.id))
    ? data({ ok: true, message: "Lead queued for another delivery attempt." })
    : data(
        { ok: false, message: "This lead cannot be retried: it is not failed, or no mailing list is configured." },
        { status: 409 },
      );
}

export const ErrorBoundary = AdminErrorBoundary;

export default function AdminLead({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, attempts, audit } = loaderData;
  const retryable = lead.deliveryStatus === "failed" || lead.deliveryStatus === "kept";
  return (
    <AdminShell
      title={`Lead: ${[lead.firstName, lead.lastName].filter(Boolean).join(" ")}`}
      actions={<Status value={lead.deliveryStatus} />}
      timeZone={loaderData.timeZone}
    >
      <Panel id="lead" title="What they sent">
        <Fields
          items={[
            ["Email", lead.email],
            ["Phone", lead.phone],
            ["Company", lead.company || "—"],
            ["Project", lead.projectType || "—"],
            ["Budget", lead.budget || "—"],
            ["Timeframe", lead.timeframe || "—"],
            ["Preferred time", lead.preferredTime || "—"],
            ["Source", lead.source],
            ["Received", <LocalDateTime key="r" iso={lead.createdAt} />],
            ["Lead id", <code key="id">{lead.id}</code>],
          ]}
        />
        {lead.message ? (
          <p className="mt-4 whitespace-pre-line break-words rounded bg-muted p-3 text-sm">{lead.message}</p>
        ) : null}
      </Panel>
      <Panel id="consent" title="Marketing consent">
        {lead.marketingConsent ? (
          <div className="space-y-2 text-sm">
            <p>
              Yes
              {lead.marketingConsentAt ? (
                <>
                  , <LocalDateTime iso={lead.marketingConsentAt} />
                </>
              ) : null}
            </p>
            {lead.marketingConsentText ? (
              <blockquote className="border-l-4 pl-3 text-muted-foreground">{lead.marketingConsentText}</blockquote>
            ) : null}
          </div>
        ) : (
          <p className="text-sm">No: the lead is called back but not added to the mailing list.</p>
        )}
      </Panel>
      <Panel id="delivery" title="Delivery to the mailing list">
        <Fields
          items={[
            ["Status", lead.deliveryStatus],
            ["Attempts", String(lead.deliveryAttempts)],
            ["Last attempt", lead.lastAttemptAt ? <LocalDateTime key="l" iso={lead.lastAttemptAt} /> : "—"],
            ["Delivered", lead.deliveredAt ? <LocalDateTime key="d" iso={lead.deliveredAt} /> : "—"],
            ["Last error", lead.lastError ?? "—"],
          ]}
        />
        <div className="mt-4">
          <MiniTable
            caption="Delivery attempts"
            head={["When", "Outcome", "Answer"]}
            empty="No attempt recorded yet."
            rows={attempts.map((a) => [
              <LocalDateTime key="w" iso={a.at} />,
              <Status key="o" value={a.outcome} />,
              <span key="a" className="break-words">
                {a.answer}
              </span>,
            ])}
          />
        </div>
        <RetryDelivery intent="retry-lead" retryable={retryable} answer={actionData} />
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={audit} />
      </Panel>
    </AdminShell>
  );
}
