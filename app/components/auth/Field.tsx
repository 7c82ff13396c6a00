import { Loader2 } from "lucide-react";
import type * as React from "react";
import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

interface FieldProps extends React.ComponentProps<"input"> {
  id: string;
  label: string;
  error?: string;
  /** Extra element beside the label (e.g. the 'Forgot password?' link). */
  aside?: React.ReactNode;
}

/** A labelled input whose error message is announced with it (aria-invalid + aria-describedby). */
export function Field({ id, label, error, aside, ...props }: FieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...props} />
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The red alert above a form (spec section 8: 'error message in a red alert'). */
export function FormAlert({ id, message }: { id?: string; message: string }) {
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-destructive"
    >
      {message}
    </div>
  );
}

/** A polite confirmation above a form (reset link sent, password updated, why sign-in is needed). */
export function FormStatus({ title, message }: { title?: string; message: string }) {
  return (
    <output className="block rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800">
      {title ? <span className="block font-semibold">{title}</span> : null}
      {message}
    </output>
  );
}

/** True while this form's submission (by its hidden `intent`) is in flight. */
export function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export function SubmitButton({ busy, idle, busyLabel }: { busy: boolean; idle: string; busyLabel: string }) {
  return (
    <Button type="submit" size="lg" className="w-full" disabled={busy}>
      {busy ? <Loader2 className="animate-spin" aria-hidden /> : null}
      {busy ? busyLabel : idle}
    </Button>
  );
}
