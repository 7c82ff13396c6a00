import { Loader2, Save } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { ADDON_CATEGORIES } from "~/catalogue/plans";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { Button } from "~/components/ui/button";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { type AddonFieldErrors, type AddonFormField, parseAddonForm } from "~/lib/admin/addon-form";
import { MAX_FEATURES } from "~/lib/admin/app-form";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { type AddonDetail, getAddonDetail } from "~/server/admin/addon-detail.server";
import { cancelAddonPriceAsOperator } from "~/server/admin/cancel-addon-price-as-operator.server";
import { updateAddonAsOperator } from "~/server/admin/update-addon-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/addon";
import { FormField, type FormFieldProps } from "~/components/admin/FormField";
import { PRICE_NOT_WITHDRAWN, PRICE_WITHDRAWN, savedMessage, withdrawnPriceId } from "~/lib/admin/price-change";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `Add-on ${loaderData.addon.name} | Operations` }, { name: "robots", content: "noindex" }];

/** Add-on ids are slugs (app/catalogue/addons.ts); anything else is a 404 without a query. */
const validId = (id: string | undefined): id is string => !!id && id.length <= 100 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id);

/**
 * /admin/addons/:id — edit an add-on of the marketplace: its listing, whether it is on sale, and its
 * monthly price, now or from a later time (docs/decisions/0078-catalogue-in-database.md). Audited.
 * Operators only; anyone else gets a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const detail = validId(params.id) ? await getAddonDetail(db(), params.id) : null;
  if (!detail) throw data(null, { status: 404 });
  return { ...detail, timeZone: await consoleTimeZone(request, me) };
}

type Values = Partial<Record<Exclude<AddonFormField, "isActive">, string>> & { isActive?: boolean };
type ActionAnswer = { ok: boolean; message: string; errors?: AddonFieldErrors; values?: Values };
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
  if (entries.intent === "cancel-price") {
    const priceId = withdrawnPriceId(entries);
    if (priceId === null) return answer({ ok: false, message: "Unknown or invalid request." }, 400);
    return (await cancelAddonPriceAsOperator(db(), operator, params.id, priceId))
      ? answer({ ok: true, message: PRICE_WITHDRAWN })
      : answer({ ok: false, message: PRICE_NOT_WITHDRAWN }, 409);
  }
  const parsed = parseAddonForm(entries, new Date(), (await consoleTimeZone(request, me)) ?? "UTC");
  if (!parsed.ok) {
    const values = Object.fromEntries(
      Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "intent"),
    ) as Values;
    return answer(
      {
        ok: false,
        message: parsed.message ?? "Check the marked fields.",
        errors: parsed.errors,
        values: { ...values, isActive: entries.isActive === "on" },
      },
      400,
    );
  }
  const updated = await updateAddonAsOperator(db(), operator, params.id, parsed.value, parsed.effectiveAt);
  if (!updated.ok) throw data(null, { status: 404 });
  return answer({ ok: true, message: savedMessage(updated) });
}

export const ErrorBoundary = AdminErrorBoundary;

/** Cents as the form's dollars: 2900 is "29", 2999 is "29.99". */
const dollarsOf = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

function valuesOf(detail: AddonDetail): Values {
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

/** The form's fields, with ids `addon-<name>`. */
function Field(props: Omit<FormFieldProps<AddonFormField>, "idPrefix">) {
  return <FormField idPrefix="addon" {...props} />;
}

export default function AdminAddon({ loaderData, actionData }: Route.ComponentProps) {
  const detail = loaderData;
  const { addon } = detail;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = actionData && !actionData.ok ? actionData : undefined;
  const values = failed?.values ?? valuesOf(detail);
  const errors = failed?.errors ?? {};
  const historyRows = detail.changes.map((c) => [
    <LocalDateTime key="at" iso={c.effectiveAt} />,
    <Status key="s" value={c.state} />,
    `${formatMoney(c.monthlyPrice)}/mo`,
    c.state === "scheduled" ? (
      <Form key="w" method="post">
        <input type="hidden" name="intent" value="cancel-price" />
        <input type="hidden" name="priceId" value={c.id} />
        <Button type="submit" size="sm" variant="outline">
          Withdraw
        </Button>
      </Form>
    ) : (
      ""
    ),
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
      timeZone={loaderData.timeZone}
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
        <Form method="post" key={addon.updatedAt} className="space-y-4" aria-label="Edit add-on" noValidate>
          <input type="hidden" name="intent" value="save" />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="name" label="Name" errors={errors}>
              {(p) => <Input {...p} defaultValue={values.name} maxLength={80} required />}
            </Field>
            <Field name="category" label="Category" errors={errors}>
              {(p) => (
                <NativeSelect {...p} defaultValue={values.category ?? ""} required>
                  {ADDON_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            <div className="sm:col-span-2">
              <Field name="description" label="Description" errors={errors}>
                {(p) => <Textarea {...p} defaultValue={values.description} rows={3} maxLength={600} required />}
              </Field>
            </div>
            <div className="sm:col-span-2">
              <Field name="features" label="Features" hint={`One per line, at most ${MAX_FEATURES}.`} errors={errors}>
                {(p) => <Textarea {...p} defaultValue={values.features} rows={5} required />}
              </Field>
            </div>
            <Field name="monthlyPrice" label="Monthly price (USD)" hint="Dollars, like 29 or 29.99." errors={errors}>
              {(p) => <Input {...p} defaultValue={values.monthlyPrice} inputMode="decimal" required />}
            </Field>
            <Field
              name="effectiveAt"
              label={`Price effective from (${loaderData.timeZone ?? "UTC"})`}
              hint="Leave empty to change the price now; a later time schedules it. Owners keep the price they bought at."
              errors={errors}
            >
              {(p) => <Input {...p} type="datetime-local" defaultValue={values.effectiveAt} />}
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="isActive" defaultChecked={values.isActive ?? true} className="size-4" />
              On sale (listed in the dashboard&apos;s add-ons)
            </label>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <Button type="submit" disabled={busy}>
              {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Save aria-hidden />}
              Save changes
            </Button>
            {actionData ? (
              <p
                role={actionData.ok ? "status" : "alert"}
                className={`text-sm font-medium ${actionData.ok ? "text-emerald-800" : "text-destructive"}`}
              >
                {actionData.message}
              </p>
            ) : null}
          </div>
        </Form>
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
