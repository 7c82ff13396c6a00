import { Loader2, Save } from "lucide-react";
import { Form } from "react-router";
import { Input, Textarea } from "~/components/ui/input";
import { Button } from "~/components/ui/button";
import { MAX_FEATURES } from "~/lib/admin/app-form";
import { FormField } from "~/components/admin/FormField";
import { ActionAnswer } from "~/components/admin/ActionAnswer";

/** The fields every catalogue form (an app, an add-on, a plan's price) has, with their messages. */
type SharedField = "description" | "features" | "effectiveAt";
type SharedErrors = Partial<Record<SharedField, string>>;

/** An item's description and its features (one per line), each the form's full width. */
export function ListingText({
  idPrefix,
  values,
  errors,
}: {
  /** The form's id prefix (`app`, `addon`): the fields' ids are `<prefix>-description` and `<prefix>-features`. */
  idPrefix: string;
  values: { description?: string | undefined; features?: string | undefined };
  errors: SharedErrors;
}) {
  return (
    <>
      <div className="sm:col-span-2">
        <FormField idPrefix={idPrefix} name="description" label="Description" errors={errors}>
          {(p) => <Textarea {...p} defaultValue={values.description} rows={3} maxLength={600} required />}
        </FormField>
      </div>
      <div className="sm:col-span-2">
        <FormField
          idPrefix={idPrefix}
          name="features"
          label="Features"
          hint={`One per line, at most ${MAX_FEATURES}.`}
          errors={errors}
        >
          {(p) => <Textarea {...p} defaultValue={values.features} rows={5} required />}
        </FormField>
      </div>
    </>
  );
}

/** When an edited price takes effect, read in the operator's zone; empty is now. */
export function PriceEffectiveFrom({
  idPrefix,
  timeZone,
  hint,
  value,
  errors,
}: {
  idPrefix: string;
  timeZone: string;
  hint: string;
  value: string | undefined;
  errors: SharedErrors;
}) {
  return (
    <FormField idPrefix={idPrefix} name="effectiveAt" label={`Price effective from (${timeZone})`} hint={hint} errors={errors}>
      {(p) => <Input {...p} type="datetime-local" defaultValue={value} />}
    </FormField>
  );
}

/** The form's submit button (busy while it posts) and the answer to the last save. */
export function SaveRow({
  busy,
  label,
  message,
}: {
  busy: boolean;
  label: string;
  message?: { ok: boolean; text: string } | undefined;
}) {
  return (
    <div className="flex flex-wrap items-center gap-4">
      <Button type="submit" disabled={busy}>
        {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Save aria-hidden />}
        {label}
      </Button>
      {message ? <ActionAnswer ok={message.ok}>{message.text}</ActionAnswer> : null}
    </div>
  );
}

/**
 * The button that withdraws a scheduled price change (a row of a price history): it posts exactly
 * `intent=cancel-price` and the row's `priceId` (withdrawnPriceId), and works without JavaScript.
 */
export function WithdrawPrice({ priceId }: { priceId: number }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="cancel-price" />
      <input type="hidden" name="priceId" value={priceId} />
      <Button type="submit" size="sm" variant="outline">
        Withdraw
      </Button>
    </Form>
  );
}
