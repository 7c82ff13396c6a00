import { Form, useNavigation } from "react-router";
import type { PlanPriceKind } from "~/catalogue/plan-prices";
import { Input } from "~/components/ui/input";
import type { PlanPriceFieldErrors, PlanPriceFormField } from "~/lib/admin/plan-price-form";
import { FormField, type FormFieldProps } from "~/components/admin/FormField";
import { PriceEffectiveFrom, SaveRow } from "~/components/admin/CatalogueFormParts";

/** What the form shows: the amounts in effect (in dollars), or what the operator sent when it came back with errors. */
export type PlanPriceFormValues = Partial<Record<PlanPriceFormField, string>>;

/** The form's fields, with ids `plan-<name>`. */
function Field(props: Omit<FormFieldProps<PlanPriceFormField>, "idPrefix">) {
  return <FormField idPrefix="plan" {...props} />;
}

const MONTHLY_HINTS: Record<Exclude<PlanPriceKind, "package">, string> = {
  plan: "Dollars a month, like 499 or 499.99.",
  scaling: "Dollars a month, like 499 or 499.99.",
  member: "Dollars a month after the member discount, like 3500 or 3499.99.",
  distributor: "Dollars a month, charged from the end of the free trial.",
};

/**
 * A plan's price form (docs/decisions/0085-plan-prices-in-database.md): its monthly price, and the
 * price before the discount (a member plan) or the setup fee (the distributor program), now or from
 * a later time; a quick-pick package's one-time price, the price it is shown against and its monthly
 * price (0089-quick-pick-package-prices-in-database.md). A plain form: it posts without JavaScript and
 * the server answers with field messages.
 */
export function PlanPriceForm({
  kind,
  values,
  errors,
  timeZone,
  message,
}: {
  kind: PlanPriceKind;
  values: PlanPriceFormValues;
  errors: PlanPriceFieldErrors;
  timeZone: string;
  message?: { ok: boolean; text: string } | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  return (
    <Form method="post" className="space-y-4" aria-label="Change the price" noValidate>
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        {kind === "package" ? (
          <>
            <Field
              name="amount"
              label="One-time price (USD)"
              hint="Whole dollars, like 3500. The funnel's goal and timeline multiply it; Rush adds 50%."
              errors={errors}
            >
              {(p) => <Input {...p} defaultValue={values.amount} inputMode="numeric" required />}
            </Field>
            <Field
              name="originalAmount"
              label="Price before the saving (USD)"
              hint="Whole dollars, shown struck through when the one-time price shown is lower. The same as the one-time price shows no saving."
              errors={errors}
            >
              {(p) => <Input {...p} defaultValue={values.originalAmount} inputMode="numeric" required />}
            </Field>
            <Field
              name="monthlyAmount"
              label="Monthly price (USD)"
              hint="Whole dollars a month, like 2000: paying monthly instead of once. The funnel's multipliers apply to it too."
              errors={errors}
            >
              {(p) => <Input {...p} defaultValue={values.monthlyAmount} inputMode="numeric" required />}
            </Field>
          </>
        ) : (
          <Field name="amount" label="Monthly price (USD)" hint={MONTHLY_HINTS[kind]} errors={errors}>
            {(p) => <Input {...p} defaultValue={values.amount} inputMode="decimal" required />}
          </Field>
        )}
        {kind === "member" ? (
          <Field
            name="originalAmount"
            label="Price before the discount (USD)"
            hint="Shown struck through; the discount customers see is the difference. The plan's features name the discount these two prices make."
            errors={errors}
          >
            {(p) => <Input {...p} defaultValue={values.originalAmount} inputMode="decimal" required />}
          </Field>
        ) : null}
        {kind === "distributor" ? (
          <Field name="setupFee" label="Setup fee (USD)" hint="Paid once, at checkout." errors={errors}>
            {(p) => <Input {...p} defaultValue={values.setupFee} inputMode="decimal" required />}
          </Field>
        ) : null}
        <PriceEffectiveFrom
          idPrefix="plan"
          timeZone={timeZone}
          hint="Leave empty to change the price now; a later time schedules it. Orders placed and plans already paid for keep their price."
          value={values.effectiveAt}
          errors={errors}
        />
      </div>
      <SaveRow busy={busy} label="Save price" message={message} />
    </Form>
  );
}
