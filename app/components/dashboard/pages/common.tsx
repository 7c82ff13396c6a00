import type * as React from "react";
import { useEffect } from "react";
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

/**
 * A form-level error (one no field owns: refused, failed). Announced when it appears, and focusable
 * so useFocusAfterResult can move focus to it when no field is invalid.
 */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" tabIndex={-1} data-form-error="" className="text-sm font-medium text-destructive focus:outline-none">
      {message}
    </p>
  );
}

/**
 * Where keyboard focus goes once a form's post has answered (its submit button was busy, and a
 * successful post may re-mount the form, both of which leave focus on <body>): after a refusal to
 * the first invalid field (its message is read as the field's description) or else to the form's
 * error (FormError); after a success back to the submit button. Focus the user moved outside the
 * form meanwhile is left alone.
 */
export function useFocusAfterResult(form: React.RefObject<HTMLFormElement | null>, result: { ok: boolean } | undefined) {
  useEffect(() => {
    const element = form.current;
    if (!result || !element) return;
    const active = document.activeElement;
    if (active && active !== document.body && !element.contains(active)) return;
    const target = result.ok
      ? element.querySelector<HTMLElement>('button[type="submit"]')
      : (element.querySelector<HTMLElement>('[aria-invalid="true"]') ?? element.querySelector<HTMLElement>("[data-form-error]"));
    target?.focus();
  }, [form, result]);
}

/** Props that tie an input to its error message. */
export function errorProps(id: string, message?: string) {
  return message ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

/** True while this page submits a form whose `intent` field equals `intent`. */
function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/**
 * A submit button carrying the form's intent that disables itself and changes its text while sending.
 * With `keepFocus` it stays focusable while sending (aria-disabled, a second click does nothing): a
 * disabled button drops keyboard focus to <body>.
 */
export function SubmitButton({
  intent,
  pendingText,
  keepFocus = false,
  children,
  className,
  onClick,
  ...props
}: ButtonProps & { intent: string; pendingText: string; keepFocus?: boolean }) {
  const submitting = useSubmitting(intent);
  const busy = keepFocus
    ? {
        "aria-disabled": submitting || undefined,
        onClick: (event: React.MouseEvent<HTMLButtonElement>) => {
          if (submitting) event.preventDefault();
          else onClick?.(event);
        },
      }
    : { disabled: submitting, onClick };
  return (
    <Button
      type="submit"
      name="intent"
      value={intent}
      className={cn(keepFocus && "aria-disabled:cursor-not-allowed aria-disabled:opacity-50", className)}
      {...busy}
      {...props}
    >
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

// Dollars with their cents when there are some: a prorated charge, a partial refund or a $39.50
// add-on is shown as it is charged, never rounded to a whole dollar it is not.
export { formatDollars, formatCount } from "~/catalogue/pricing";

/** 10000 -> "10K", 1000000 -> "1M". */
export const shortCount = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}K` : String(n));
