import { Form, useNavigation } from "react-router";
import { ADDON_CATEGORIES } from "~/catalogue/plans";
import { Input, NativeSelect } from "~/components/ui/input";
import type { AddonFieldErrors, AddonFormField } from "~/lib/admin/addon-form";
import { FormField, type FormFieldProps } from "~/components/admin/FormField";
import { ListingText, PriceEffectiveFrom, SaveRow } from "~/components/admin/CatalogueFormParts";

/** What the form shows: the stored add-on, or what the operator sent when it came back with errors. */
export type AddonFormValues = Partial<Record<Exclude<AddonFormField, "isActive">, string>> & { isActive?: boolean };

/** The form's fields, with ids `addon-<name>`. */
function Field(props: Omit<FormFieldProps<AddonFormField>, "idPrefix">) {
  return <FormField idPrefix="addon" {...props} />;
}

/**
 * The console's add-on form (create and edit; docs/decisions/0078-catalogue-in-database.md). A plain
 * form: it posts without JavaScript and the server answers with field messages.
 */
export function AddonForm({
  mode,
  values,
  errors,
  timeZone,
  message,
}: {
  mode: "create" | "edit";
  values: AddonFormValues;
  errors: AddonFieldErrors;
  timeZone: string;
  message?: { ok: boolean; text: string } | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  return (
    <Form method="post" className="space-y-4" aria-label={mode === "create" ? "New add-on" : "Edit add-on"} noValidate>
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          name="name"
          label="Name"
          hint={mode === "create" ? "Its id is made from the name and never changes." : undefined}
          errors={errors}
        >
          {(p) => <Input {...p} defaultValue={values.name} maxLength={80} required />}
        </Field>
        <Field name="category" label="Category" errors={errors}>
          {(p) => (
            <NativeSelect {...p} defaultValue={values.category ?? ""} required>
              {mode === "create" ? (
                <option value="" disabled>
                  Choose a category
                </option>
              ) : null}
              {ADDON_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <ListingText idPrefix="addon" values={values} errors={errors} />
        <Field name="monthlyPrice" label="Monthly price (USD)" hint="Dollars, like 29 or 29.99." errors={errors}>
          {(p) => <Input {...p} defaultValue={values.monthlyPrice} inputMode="decimal" required />}
        </Field>
        {mode === "edit" ? (
          <PriceEffectiveFrom
            idPrefix="addon"
            timeZone={timeZone}
            hint="Leave empty to change the price now; a later time schedules it. Owners keep the price they bought at."
            value={values.effectiveAt}
            errors={errors}
          />
        ) : null}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="isActive" defaultChecked={values.isActive ?? true} className="size-4" />
          On sale (listed in the dashboard&apos;s add-ons)
        </label>
      </div>
      <SaveRow busy={busy} label={mode === "create" ? "Create add-on" : "Save changes"} message={message} />
    </Form>
  );
}
