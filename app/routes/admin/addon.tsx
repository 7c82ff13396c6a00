import { data, redirect, useSearchParams } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AddonForm, type AddonFormValues } from "~/components/admin/AddonForm";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { OrderForm } from "~/components/admin/OrderForm";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { WithdrawPrice } from "~/components/admin/CatalogueFormParts";
import { type AddonFieldErrors, parseAddonForm, parseNewAddonForm } from "~/lib/admin/addon-form";
import { movedMessage, NOT_MOVED, typedPosition } from "~/lib/admin/position";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { type AddonDetail, getAddonDetail } from "~/server/admin/addon-detail.server";
import { cancelAddonPriceAsOperator } from "~/server/admin/cancel-addon-price-as-operator.server";
import { createAddonAsOperator } from "~/server/admin/create-addon-as-operator.server";
import { moveAddonAsOperator } from "~/server/admin/move-addon-as-operator.server";
import { updateAddonAsOperator } from "~/server/admin/update-addon-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/addon";
import { PRICE_NOT_WITHDRAWN, PRICE_WITHDRAWN, savedMessage, withdrawnPriceId } from "~/lib/admin/price-change";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [
        { title: `${loaderData.detail ? `Add-on ${loaderData.detail.addon.name}` : "New add-on"} | Operations` },
        { name: "robots", content: "noindex" },
      ];

/** Add-on ids are slugs (app/catalogue/addons.ts); anything else is a 404 without a query. No add-on is
 * called "new" (create-addon-as-operator.server.ts), so that address is the new add-on form. */
const validId = (id: string | undefined): id is string => !!id && id.length <= 100 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id);

/**
 * /admin/addons/new and /admin/addons/:id — create an add-on of the marketplace, or edit one: its
 * listing, whether it is on sale, and its monthly price, now or from a later time
 * (docs/decisions/0078-catalogue-in-database.md), and its place in the marketplace's order
 * (docs/decisions/0080-catalogue-order-and-add-on-creation.md). Audited. Operators only; anyone
 * else gets a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  if (params.id === "new") return { detail: null, timeZone: await consoleTimeZone(request, me) };
  const detail = validId(params.id) ? await getAddonDetail(db(), params.id) : null;
  if (!detail) throw data(null, { status: 404 });
  return { detail, timeZone: await consoleTimeZone(request, me) };
}

type ActionAnswer = {
  ok: boolean;
  message: string;
  errors?: AddonFieldErrors;
  values?: AddonFormValues;
  /** Set when the answer is the order form's (a move), with its field's message and what was typed. */
  form?: "order";
  positionError?: string;
  position?: string;
};
const answer = (body: ActionAnswer, status = 200) => data(body, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireOperator(request);
  const operator = { id: me.id, email: me.email };
  if (!validId(params.id)) throw data(null, { status: 404 });
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return answer({ ok: false, message: "The form could not be read." }, 400);
  }
  const sent = () =>
    ({
      ...Object.fromEntries(
        Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "intent"),
      ),
      isActive: entries.isActive === "on",
    }) as AddonFormValues;

  if (params.id === "new") {
    const parsed = parseNewAddonForm(entries);
    if (!parsed.ok)
      return answer(
        { ok: false, message: parsed.message ?? "Check the marked fields.", errors: parsed.errors, values: sent() },
        400,
      );
    const created = await createAddonAsOperator(db(), operator, parsed.value);
    throw redirect(`/admin/addons/${created.id}?created=1`);
  }
  if (entries.intent === "move") {
    const moved = await moveAddonAsOperator(db(), operator, params.id, entries.position);
    if (moved.ok) return answer({ ok: true, form: "order", message: movedMessage(moved.from, moved.to, moved.of) });
    if (moved.reason === "not_found") throw data(null, { status: 404 });
    return answer(
      { ok: false, form: "order", message: NOT_MOVED, positionError: moved.message, position: typedPosition(entries.position) },
      400,
    );
  }
  if (entries.intent === "cancel-price") {
    const priceId = withdrawnPriceId(entries);
    if (priceId === null) return answer({ ok: false, message: "Unknown or invalid request." }, 400);
    return (await cancelAddonPriceAsOperator(db(), operator, params.id, priceId))
      ? answer({ ok: true, message: PRICE_WITHDRAWN })
      : answer({ ok: false, message: PRICE_NOT_WITHDRAWN }, 409);
  }
  const parsed = parseAddonForm(entries, new Date(), (await consoleTimeZone(request, me)) ?? "UTC");
  if (!parsed.ok)
    return answer(
      { ok: false, message: parsed.message ?? "Check the marked fields.", errors: parsed.errors, values: sent() },
      400,
    );
  const updated = await updateAddonAsOperator(db(), operator, params.id, parsed.value, parsed.effectiveAt);
  if (!updated.ok) throw data(null, { status: 404 });
  return answer({ ok: true, message: savedMessage(updated) });
}

export const ErrorBoundary = AdminErrorBoundary;

/** Cents as the form's dollars: 2900 is "29", 2999 is "29.99". */
const dollarsOf = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

function valuesOf(detail: AddonDetail): AddonFormValues {
  const { addon } = detail;
  return {
    name: addon.name,
    description: addon.description,
    category: addon.category,
    features: addon.features.join("\n"),
    isActive: addon.isActive,
    monthlyPrice: dollarsOf(detail.current),
    effectiveAt: "",
  };
}

export default function AdminAddon({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, timeZone } = loaderData;
  const [search] = useSearchParams();
  const moveAnswer = actionData?.form === "order" ? actionData : undefined;
  const formAnswer = actionData?.form === "order" ? undefined : actionData;
  const failed = formAnswer && !formAnswer.ok ? formAnswer : undefined;
  const errors = failed?.errors ?? {};
  const message = formAnswer
    ? { ok: formAnswer.ok, text: formAnswer.message }
    : search.get("created") === "1" && !moveAnswer
      ? { ok: true, text: "Add-on created." }
      : undefined;
  if (!detail) {
    return (
      <AdminShell title="New add-on" timeZone={timeZone}>
        <Panel id="addon" title="The add-on">
          <AddonForm
            mode="create"
            values={failed?.values ?? { isActive: false }}
            errors={errors}
            timeZone={timeZone ?? "UTC"}
            message={message}
          />
        </Panel>
      </AdminShell>
    );
  }
  const { addon } = detail;
  const historyRows = detail.changes.map((c) => [
    <LocalDateTime key="at" iso={c.effectiveAt} />,
    <Status key="s" value={c.state} />,
    `${formatMoney(c.monthlyPrice)}/mo`,
    c.state === "scheduled" ? <WithdrawPrice key="w" priceId={c.id} /> : "",
  ]);
  historyRows.push([
    "From the start",
    <Status key="s" value={detail.changes.some((c) => c.state === "current") ? "past" : "current"} />,
    `${formatMoney(addon.listPrice)}/mo`,
    "",
  ]);
  return (
    <AdminShell
      title={`Add-on: ${addon.name}`}
      actions={<Status value={addon.isActive ? "on sale" : "off sale"} />}
      timeZone={timeZone}
    >
      <Panel id="summary" title="Now">
        <Fields
          items={[
            ["Id", <code key="id">{addon.id}</code>],
            ["Category", addon.category],
            ["Monthly price", `${formatMoney(detail.current)}/mo`],
            ["Last edited", <LocalDateTime key="u" iso={addon.updatedAt} />],
          ]}
        />
      </Panel>
      <Panel id="addon" title="Edit">
        {/* A fresh form after each save: its fields show what is stored now. */}
        <AddonForm
          key={addon.updatedAt}
          mode="edit"
          values={failed?.values ?? valuesOf(detail)}
          errors={errors}
          timeZone={timeZone ?? "UTC"}
          message={message}
        />
      </Panel>
      <Panel id="order" title="Order in the dashboard's add-ons">
        <OrderForm
          position={detail.order.position}
          of={detail.order.of}
          listedOn="/dashboard/addons"
          hint="Add-ons off sale keep their place. Customers see the add-ons grouped by category, each group where its first add-on comes."
          answer={moveAnswer}
        />
      </Panel>
      <Panel id="prices" title="Price history">
        <MiniTable
          caption="Price history"
          head={["Effective from", "State", "Monthly", "Action"]}
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
