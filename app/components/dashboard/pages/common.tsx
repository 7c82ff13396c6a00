import type * as React from "react";
import { Loader2 } from "lucide-react";
import { useNavigation } from "react-router";
import { Button, type ButtonProps } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** The page's single h1 plus a one-line description. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
        {description ? <p className="mt-1 text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}

/** A field's error message, linked to its input by `aria-describedby={id}`. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-destructive">
      {message}
    </p>
  );
}

/** Props that tie an input to its error message. */
export function errorProps(id: string, message?: string) {
  return message ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

/** True while this page submits a form whose `intent` field equals `intent`. */
export function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/** A submit button carrying the form's intent that disables itself and changes its text while sending. */
export function SubmitButton({
  intent,
  pendingText,
  children,
  className,
  ...props
}: ButtonProps & { intent: string; pendingText: string }) {
  const submitting = useSubmitting(intent);
  return (
    <Button type="submit" name="intent" value={intent} disabled={submitting} className={cn(className)} {...props}>
      {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
      {submitting ? pendingText : children}
    </Button>
  );
}

/** A friendly, centred "nothing here yet" panel. */
export function EmptyState({ icon, title, children }: { icon: React.ReactNode; title: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-8 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:size-6">
        {icon}
      </div>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </div>
  );
}

export { formatWholeDollars as formatDollars, formatCount } from "~/catalogue/pricing";

/** 10000 -> "10K", 1000000 -> "1M". */
export const shortCount = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}K` : String(n));
