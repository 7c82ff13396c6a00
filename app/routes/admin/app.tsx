import { data, Link, redirect, useSearchParams } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AppForm, type AppFormValues } from "~/components/admin/AppForm";
import { AuditList } from "~/components/admin/AuditList";
import { OrderForm } from "~/components/admin/OrderForm";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { WithdrawPrice } from "~/components/admin/CatalogueFormParts";
import { type FieldErrors, parseAppForm } from "~/lib/admin/app-form";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { type AppDetail, getAppDetail } from "~/server/admin/app-detail.server";
import { cancelAppPriceAsOperator } from "~/server/admin/cancel-app-price-as-operator.server";
import { createAppAsOperator } from "~/server/admin/create-app-as-operator.server";
import { moveAppAsOperator } from "~/server/admin/move-app-as-operator.server";
import { updateAppAsOperator } from "~/server/admin/update-app-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/app";
import { PRICE_NOT_WITHDRAWN, PRICE_WITHDRAWN, savedMessage, withdrawnPriceId } from "~/lib/admin/price-change";
import { movedMessage, NOT_MOVED, typedPosition } from "~/lib/admin/position";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [
        { title: `${loaderData.detail ? `App ${loaderData.detail.app.name}` : "New app"} | Operations` },
        { name: "robots", content: "noindex" },
      ];

/** 'new', or an app id in digits (anything else is a 404 without a query). */
function appIdOf(param: string | undefined): number | "new" | null {
  if (param === "new") return "new";
  if (!param || !/^[1-9]\d{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id <= 2_147_483_647 ? id : null;
}

/**
 * /admin/apps/new and /admin/apps/:id — create a catalogue app, or edit one: its listing, whether it
 * is published, and its prices, now or from a later time (docs/decisions/0078-catalogue-in-database.md),
 * and its place in /apps' order (docs/decisions/0080-catalogue-order-and-add-on-creation.md).
 * Every change is audited. Operators only; anyone else gets a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const id = appIdOf(params.id);
  if (id === null) throw data(null, { status: 404 });
  const timeZone = await consoleTimeZone(request, me);
  if (id === "new") return { detail: null, timeZone };
  const detail = await getAppDetail(db(), id);
  if (!detail) throw data(null, { status: 404 });
  return { detail, timeZone };
}

type ActionAnswer = {
  ok: boolean;
  message: string;
  errors?: FieldErrors;
  values?: AppFormValues;
  /** Set when the answer is the order form's (a move), with its field's message and what was typed. */
  form?: "order";
  positionError?: string;
  position?: string;
};

const answer = (body: ActionAnswer, status = 200) => data(body, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireOperator(request);
  const operator = { id: me.id, email: me.email };
  const id = appIdOf(params.id);
  if (id === null) throw data(null, { status: 404 });
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return answer({ ok: false, message: "The form could not be read." }, 400);
  }

  if (entries.intent === "cancel-price" && id !== "new") {
    const priceId = withdrawnPriceId(entries);
    if (priceId === null) return answer({ ok: false, message: "Unknown or invalid request." }, 400);
    return (await cancelAppPriceAsOperator(db(), operator, id, priceId))
      ? answer({ ok: true, message: PRICE_WITHDRAWN })
      : answer({ ok: false, message: PRICE_NOT_WITHDRAWN }, 409);
  }

  if (entries.intent === "move" && id !== "new") {
    const moved = await moveAppAsOperator(db(), operator, id, entries.position);
    if (moved.ok) return answer({ ok: true, form: "order", message: movedMessage(moved.from, moved.to, moved.of) });
    if (moved.reason === "not_found") throw data(null, { status: 404 });
    return answer(
      { ok: false, form: "order", message: NOT_MOVED, positionError: moved.message, position: typedPosition(entries.position) },
      400,
    );
  }

  const parsed = parseAppForm(entries, new Date(), (await consoleTimeZone(request, me)) ?? "UTC");
  if (!parsed.ok) {
    const values = Object.fromEntries(
      Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "intent"),
    ) as AppFormValues & Record<string, unknown>;
    return answer(
      {
        ok: false,
        message: parsed.message ?? "Check the marked fields.",
        errors: parsed.errors,
        values: { ...values, isActive: entries.isActive === "on", isPopular: entries.isPopular === "on" },
      },
      400,
    );
  }
  if (id === "new") {
    const created = await createAppAsOperator(db(), operator, parsed.value);
    throw redirect(`/admin/apps/${created.id}?created=1`);
  }
  const updated = await updateAppAsOperator(db(), operator, id, parsed.value, parsed.effectiveAt);
  if (!updated.ok) throw data(null, { status: 404 });
  return answer({ ok: true, message: savedMessage(updated) });
}

export const ErrorBoundary = AdminErrorBoundary;

const usd = (n: number | string) => `$${Number(n).toLocaleString("en-US")}`;

function valuesOf(detail: AppDetail): AppFormValues {
  const { app, current } = detail;
  return {
    name: app.name,
    description: app.description,
    industry: app.industry,
    features: app.features.join("\n"),
    deliveryTime: app.deliveryTime,
    isActive: app.isActive,
    isPopular: app.isPopular,
    basePrice: String(current.basePrice),
    expressPrice: String(current.expressPrice),
    standardPrice: String(current.standardPrice),
    monthlyFinancing: String(current.monthlyFinancing),
    effectiveAt: "",
  };
}

function PriceHistory({ detail }: { detail: AppDetail }) {
  const rows = detail.changes.map((c) => [
    <LocalDateTime key="at" iso={c.effectiveAt} />,
    <Status key="s" value={c.state} />,
    usd(c.basePrice),
    usd(c.expressPrice),
    usd(c.standardPrice),
    `${usd(c.monthlyFinancing)}/mo`,
    c.state === "scheduled" ? <WithdrawPrice key="w" priceId={c.id} /> : "",
  ]);
  const list = detail.listPrice;
  rows.push([
    "From the start",
    <Status key="s" value={detail.changes.some((c) => c.state === "current") ? "past" : "current"} />,
    usd(list.basePrice),
    usd(list.expressPrice),
    usd(list.standardPrice),
    `${usd(list.monthlyFinancing)}/mo`,
    "",
  ]);
  return (
    <MiniTable
      caption="Price history"
      head={["Effective from", "State", "Base", "Express", "Standard", "Monthly", "Action"]}
      empty="No price yet."
      rows={rows}
    />
  );
}

export default function AdminApp({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, timeZone } = loaderData;
  const [search] = useSearchParams();
  const moveAnswer = actionData?.form === "order" ? actionData : undefined;
  const formAnswer = actionData?.form === "order" ? undefined : actionData;
  const failed = formAnswer && !formAnswer.ok ? formAnswer : undefined;
  const message = formAnswer
    ? { ok: formAnswer.ok, text: formAnswer.message }
    : search.get("created") === "1"
      ? { ok: true, text: "App created." }
      : undefined;
  if (!detail) {
    return (
      <AdminShell title="New app" timeZone={timeZone}>
        <Panel id="app" title="The app">
          <AppForm mode="create" values={failed?.values ?? { isActive: false }} errors={failed?.errors ?? {}} message={message} />
        </Panel>
      </AdminShell>
    );
  }
  const { app } = detail;
  return (
    <AdminShell
      title={`App: ${app.name}`}
      timeZone={timeZone}
      actions={
        <span className="flex items-center gap-3 text-sm">
          <Status value={app.isActive ? "published" : "unpublished"} />
          {app.isActive ? (
            <Link to={`/apps/${app.slug}`} className="font-medium text-primary underline-offset-4 hover:underline">
              View page
            </Link>
          ) : null}
        </span>
      }
    >
      <Panel id="summary" title="Now">
        <Fields
          items={[
            ["Address", <code key="a">/apps/{app.slug}</code>],
            ["Base price", usd(detail.current.basePrice)],
            ["Express price", usd(detail.current.expressPrice)],
            ["Standard price", usd(detail.current.standardPrice)],
            ["Monthly financing", `${usd(detail.current.monthlyFinancing)}/mo`],
            ["Reviews", `${app.reviews} (rating ${app.rating})`],
            ["Last edited", <LocalDateTime key="u" iso={app.updatedAt} />],
          ]}
        />
      </Panel>
      <Panel id="app" title="Edit">
        {/* A fresh form after each save: its fields show what is stored now. */}
        <AppForm
          key={app.updatedAt}
          mode="edit"
          timeZone={timeZone ?? "UTC"}
          values={failed?.values ?? valuesOf(detail)}
          errors={failed?.errors ?? {}}
          message={message}
        />
      </Panel>
      <Panel id="order" title="Order on /apps">
        <OrderForm
          position={detail.order.position}
          of={detail.order.of}
          listedOn="/apps"
          hint="Unpublished apps keep their place; visitors see the published ones in this order."
          answer={moveAnswer}
        />
      </Panel>
      <Panel id="prices" title="Price history">
        <PriceHistory detail={detail} />
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={detail.audit} />
      </Panel>
    </AdminShell>
  );
}
