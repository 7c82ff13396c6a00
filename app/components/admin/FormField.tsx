import type { ReactNode } from "react";
import { Label } from "~/components/ui/label";

/** What a console form's control gets from its field: its id and name, and its hint and error wiring. */
interface FieldControlProps {
  id: string;
  name: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

export interface FormFieldProps<F extends string> {
  /** Makes the ids unique on the page: `${idPrefix}-${name}`. */
  idPrefix: string;
  name: F;
  label: string;
  hint?: string;
  errors: Partial<Record<F, string>>;
  /** Renders the control (an input, a textarea, a select) with the props it must carry. */
  children: (props: FieldControlProps) => ReactNode;
}

/**
 * A labelled control of a console form, with its hint and its error message both read as the
 * control's description (aria-describedby) and the error marking it invalid.
 */
export function FormField<F extends string>({ idPrefix, name, label, hint, errors, children }: FormFieldProps<F>) {
  const id = `${idPrefix}-${name}`;
  const error = errors[name];
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, name, ...(error ? { "aria-invalid": true as const } : {}), "aria-describedby": describedBy })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
