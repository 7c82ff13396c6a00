import { Form, useNavigation } from "react-router";
import { INDUSTRIES } from "~/catalogue/industries";
import { Input, NativeSelect } from "~/components/ui/input";
import type { AppFormField, FieldErrors } from "~/lib/admin/app-form";
import { FormField, type FormFieldProps } from "~/components/admin/FormField";
import { ListingText, PriceEffectiveFrom, SaveRow } from "~/components/admin/CatalogueFormParts";

/** What the form shows: the stored app, or what the operator sent when it came back with errors. */
export type AppFormValues = Partial<Record<Exclude<AppFormField, "isPopular" | "isActive">, string>> & {
  isPopular?: boolean;
  isActive?: boolean;
};

/** The form's fields, with ids `app-<name>`. */
function Field(props: Omit<FormFieldProps<AppFormField>, "idPrefix">) {
  return <FormField idPrefix="app" {...props} />;
}

/**
 * The console's app form (create and edit; docs/decisions/0078-catalogue-in-database.md). A plain
 * form: it posts without JavaScript and the server answers with field messages.
 */
export function AppForm({
  values,
  errors,
  mode,
  message,
  timeZone = "UTC",
}: {
  values: AppFormValues;
  errors: FieldErrors;
  mode: "create" | "edit";
  /** The zone "Price effective from" is read in (the operator's). */
  timeZone?: string;
  message?: { ok: boolean; text: string } | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" className="space-y-6" aria-label={mode === "create" ? "New app" : "Edit app"} noValidate>
      <input type="hidden" name="intent" value="save" />
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">Listing</legend>
        <Field name="name" label="Name" errors={errors}>
          {(p) => <Input {...p} defaultValue={values.name} maxLength={80} required />}
        </Field>
        <Field name="industry" label="Industry" errors={errors}>
          {(p) => (
            <NativeSelect {...p} defaultValue={values.industry ?? ""} required>
              <option value="" disabled>
                Choose an industry
              </option>
              {INDUSTRIES.map((i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <ListingText idPrefix="app" values={values} errors={errors} />
        <Field name="deliveryTime" label="Delivery time" hint='For example "10-14 days".' errors={errors}>
          {(p) => <Input {...p} defaultValue={values.deliveryTime} maxLength={40} required />}
        </Field>
        <div className="flex flex-col justify-end gap-3 pb-1 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" name="isActive" defaultChecked={values.isActive ?? true} className="size-4" />
            Published (listed on /apps and for sale)
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="isPopular" defaultChecked={values.isPopular ?? false} className="size-4" />
            Popular (badge on its card)
          </label>
        </div>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-lg font-semibold">Prices (whole US dollars)</legend>
        <Field name="basePrice" label="Base price" errors={errors}>
          {(p) => <Input {...p} defaultValue={values.basePrice} inputMode="numeric" required />}
        </Field>
        <Field name="expressPrice" label="Express price" errors={errors}>
          {(p) => <Input {...p} defaultValue={values.expressPrice} inputMode="numeric" required />}
        </Field>
        <Field name="standardPrice" label="Standard price" errors={errors}>
          {(p) => <Input {...p} defaultValue={values.standardPrice} inputMode="numeric" required />}
        </Field>
        <Field name="monthlyFinancing" label="Monthly financing" errors={errors}>
          {(p) => <Input {...p} defaultValue={values.monthlyFinancing} inputMode="numeric" required />}
        </Field>
        {mode === "edit" ? (
          <div className="sm:col-span-2">
            <PriceEffectiveFrom
              idPrefix="app"
              timeZone={timeZone}
              hint="Leave empty to change the price now; a later time schedules the change. Orders already placed keep their price."
              value={values.effectiveAt}
              errors={errors}
            />
          </div>
        ) : null}
      </fieldset>
      <SaveRow busy={busy} label={mode === "create" ? "Create app" : "Save changes"} message={message} />
    </Form>
  );
}
