import { data, Link } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { WithdrawPrice } from "~/components/admin/CatalogueFormParts";
import { PlanPriceForm, type PlanPriceFormValues } from "~/components/admin/PlanPriceForm";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { findPricedPlan, KIND_LABELS, type PlanAmounts, planAmountsText } from "~/catalogue/plan-prices";
import { PLAN_PRICE_FORM_FIELDS, type PlanPriceFieldErrors, parsePlanPriceForm } from "~/lib/admin/plan-price-form";
import { PRICE_NOT_WITHDRAWN, PRICE_WITHDRAWN, savedMessage, withdrawnPriceId } from "~/lib/admin/price-change";
import { requireOperator } from "~/server/admin/admin.server";
import { cancelPlanPriceAsOperator } from "~/server/admin/cancel-plan-price-as-operator.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { getPlanPriceDetail } from "~/server/admin/plan-price-detail.server";
import { updatePlanPriceAsOperator } from "~/server/admin/update-plan-price-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/plan";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `Plan ${loaderData.plan.name} | Operations` }, { name: "robots", content: "noindex" }];

/**
 * The priced plan an address names (`plan-pro`, `scaling-2`, `member-growth`, `distributor`,
 * `package-starter`), else a 404 without a query.
 */
function planOf(id: string | undefined) {
  const plan = id && id.length <= 40 ? findPricedPlan(id) : undefined;
  if (!plan) throw data(null, { status: 404 });
  return plan;
}

/**
 * /admin/plans/:id — one plan's price: what it sells at now, a form to change its amounts now or
 * from a later time (in the operator's time zone), the history with scheduled changes to withdraw,
 * and the operator actions on it (docs/decisions/0085-plan-prices-in-database.md). Operators only;
 * anyone else gets a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const plan = planOf(params.id);
  const [detail, timeZone] = await Promise.all([getPlanPriceDetail(db(), plan), consoleTimeZone(request, me)]);
  return { plan, detail, timeZone };
}

type ActionAnswer = {
  ok: boolean;
  message: string;
  errors?: PlanPriceFieldErrors;
  /** What the operator sent, shown again beside the field messages. */
  values?: PlanPriceFormValues;
};
const answer = (body: ActionAnswer, status = 200) => data(body, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireOperator(request);
  const operator = { id: me.id, email: me.email };
  const plan = planOf(params.id);
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return answer({ ok: false, message: "The form could not be read." }, 400);
  }
  if (entries.intent === "cancel-price") {
    const priceId = withdrawnPriceId(entries);
    if (priceId === null) return answer({ ok: false, message: "Unknown or invalid request." }, 400);
    return (await cancelPlanPriceAsOperator(db(), operator, plan, priceId))
      ? answer({ ok: true, message: PRICE_WITHDRAWN })
      : answer({ ok: false, message: PRICE_NOT_WITHDRAWN }, 409);
  }
  const parsed = parsePlanPriceForm(entries, plan.kind, new Date(), (await consoleTimeZone(request, me)) ?? "UTC");
  if (!parsed.ok) {
    const values: PlanPriceFormValues = {};
    for (const field of PLAN_PRICE_FORM_FIELDS) if (typeof entries[field] === "string") values[field] = entries[field];
    return answer({ ok: false, message: parsed.message ?? "Check the marked fields.", errors: parsed.errors, values }, 400);
  }
  const saved = await updatePlanPriceAsOperator(db(), operator, plan, parsed.amounts, parsed.effectiveAt);
  return answer({ ok: true, message: savedMessage({ details: false, price: saved.price }) });
}

export const ErrorBoundary = AdminErrorBoundary;

/** Cents as the form's dollars: 49900 is "499", 49950 is "499.50". */
const dollarsOf = (cents: number | null) =>
  cents === null ? undefined : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);

function valuesOf(amounts: PlanAmounts): PlanPriceFormValues {
  return {
    amount: dollarsOf(amounts.amount),
    originalAmount: dollarsOf(amounts.originalAmount),
    setupFee: dollarsOf(amounts.setupFee),
    monthlyAmount: dollarsOf(amounts.monthlyAmount),
    effectiveAt: "",
  };
}

const money = (amounts: PlanAmounts) => planAmountsText(amounts, formatMoney);

export default function AdminPlan({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, detail, timeZone } = loaderData;
  const failed = actionData && !actionData.ok ? actionData : undefined;
  const message = actionData ? { ok: actionData.ok, text: actionData.message } : undefined;
  const historyRows = detail.changes.map((c) => [
    <LocalDateTime key="at" iso={c.effectiveAt} />,
    <Status key="s" value={c.state} />,
    money(c.amounts),
    c.state === "scheduled" ? <WithdrawPrice key="w" priceId={c.id} /> : "",
  ]);
  historyRows.push([
    "From the start",
    <Status key="s" value={detail.changes.some((c) => c.state === "current") ? "past" : "current"} />,
    money(plan.list),
    "",
  ]);
  return (
    <AdminShell title={`Plan: ${plan.name}`} timeZone={timeZone}>
      <p className="text-sm">
        <Link to="/admin/plans" className="font-medium text-primary underline-offset-4 hover:underline">
          All plans
        </Link>
      </p>
      <Panel id="summary" title="Now">
        <Fields
          items={[
            ["Kind", KIND_LABELS[plan.kind]],
            ["Id", <code key="id">{plan.key}</code>],
            ["Price now", money(detail.current)],
            ["List price", money(plan.list)],
          ]}
        />
      </Panel>
      <Panel id="price" title="Change the price">
        {/* A fresh form after each save: its fields show what is in effect now. */}
        <PlanPriceForm
          key={detail.changes.map((c) => c.id).join(",")}
          kind={plan.kind}
          values={failed?.values ?? valuesOf(detail.current)}
          errors={failed?.errors ?? {}}
          timeZone={timeZone ?? "UTC"}
          message={message}
        />
      </Panel>
      <Panel id="prices" title="Price history">
        <MiniTable
          caption="Price history"
          head={["Effective from", "State", "Price", "Action"]}
          empty="No price yet."
          rows={historyRows}
        />
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={detail.audit} />
      </Panel>
    </AdminShell>
  );
}
