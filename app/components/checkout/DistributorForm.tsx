import { CircleAlert, LoaderCircle, Lock } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { DISTRIBUTOR_PROGRAM, type DistributorFees } from "~/catalogue/plans";
import { formatDollars } from "~/catalogue/pricing";
import { LegalNotice } from "~/components/legal/LegalNotice";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { startCheckout } from "~/lib/checkout-client";
import { checkoutRefusalText, refusalLine, signInHref } from "./messages";

export interface DistributorValues {
  email: string;
  fullName: string;
  businessName: string;
}

type Field = keyof DistributorValues;
export type DistributorFieldErrors = Partial<Record<Field, string>>;

/** The same limits and messages as the server's schema (app/lib/checkout-request.ts), checked before a tab opens. */
const LIMITS: Record<Field, number> = { email: 254, fullName: 120, businessName: 160 };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validateDistributor(v: DistributorValues): DistributorFieldErrors {
  const errors: DistributorFieldErrors = {};
  if (!EMAIL.test(v.email.trim())) errors.email = "Enter a valid email address";
  if (!v.fullName.trim()) errors.fullName = "Enter your full name";
  if (!v.businessName.trim()) errors.businessName = "Enter your business name";
  return errors;
}

const FIELDS: { name: Field; label: string; type: string; autoComplete: string }[] = [
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "fullName", label: "Full name", type: "text", autoComplete: "name" },
  { name: "businessName", label: "Business name", type: "text", autoComplete: "organization" },
];

/**
 * The distributor sign-up (docs/decisions/0009): prefilled from the account, editable, checked
 * here and by the server (its field messages show next to the field), and paid on the provider's
 * page in a new tab. Without JavaScript it is a plain POST to /distributors, which redirects.
 */
export function DistributorForm({
  initial,
  fees,
  serverError,
}: {
  initial: DistributorValues;
  /** The program's current fees, as the page shows them (the server charges them again at checkout). */
  fees: DistributorFees;
  /** The no-JavaScript POST's failure, if any. */
  serverError?: { code: string; message?: string; field?: string } | null;
}) {
  const navigate = useNavigate();
  const [errors, setErrors] = useState<DistributorFieldErrors>(() => fieldErrorOf(serverError));
  // The message under the form when the server refused without a field to point at.
  const [failed, setFailed] = useState<string | null>(
    serverError && Object.keys(fieldErrorOf(serverError)).length === 0 ? failureMessage(serverError) : null,
  );
  const [processing, setProcessing] = useState(false);
  const busy = useRef(false);
  const mounted = useRef(true);
  const refs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const focusFirst = (errs: DistributorFieldErrors) => {
    const first = FIELDS.find((f) => errs[f.name]);
    if (first) refs.current[first.name]?.focus();
  };

  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy.current) return;
    // Read from the fields, not from state: what was typed before hydration is only there.
    const data = new FormData(e.currentTarget);
    const text = (name: Field) => String(data.get(name) ?? "");
    const values: DistributorValues = { email: text("email"), fullName: text("fullName"), businessName: text("businessName") };
    const local = validateDistributor(values);
    setErrors(local);
    setFailed(null);
    if (Object.keys(local).length > 0) {
      focusFirst(local);
      return;
    }
    busy.current = true;
    setProcessing(true);
    void startCheckout({
      kind: "distributor",
      email: values.email.trim(),
      fullName: values.fullName.trim(),
      businessName: values.businessName.trim(),
    }).then((answer) => {
      busy.current = false;
      if (!mounted.current) return;
      setProcessing(false);
      if ("url" in answer) return;
      if (answer.code === "not_signed_in") {
        void navigate(signInHref("/distributors"));
        return;
      }
      const fieldErrors = fieldErrorOf(answer);
      if (Object.keys(fieldErrors).length > 0) {
        setErrors(fieldErrors);
        focusFirst(fieldErrors);
        return;
      }
      console.error("Distributor checkout failed", answer);
      setFailed(failureMessage(answer));
    });
  };

  return (
    <form
      method="post"
      noValidate
      onSubmit={submit}
      className="grid grid-cols-1 gap-4 text-left"
      aria-labelledby="distributor-form-title"
    >
      <h3 id="distributor-form-title" className="text-lg font-bold">
        Your details
      </h3>
      {FIELDS.map(({ name, label, type, autoComplete }) => {
        const error = errors[name];
        const errorId = `distributor-${name}-error`;
        return (
          <div key={name} className="grid gap-1.5">
            <Label htmlFor={`distributor-${name}`}>{label}</Label>
            <Input
              ref={(el) => {
                refs.current[name] = el;
              }}
              id={`distributor-${name}`}
              name={name}
              type={type}
              autoComplete={autoComplete}
              required
              maxLength={LIMITS[name]}
              // Uncontrolled, so a value typed before hydration stays (docs/decisions/0040-forms-before-hydration.md).
              defaultValue={initial[name]}
              onChange={() => {
                if (errors[name])
                  setErrors((errs) => {
                    const rest = { ...errs };
                    delete rest[name];
                    return rest;
                  });
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
            {error && (
              <p id={errorId} className="text-sm font-medium text-destructive">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <p className="rounded-lg bg-muted px-3 py-2 text-sm font-semibold" data-testid="distributor-summary">
        {formatDollars(fees.setupFee)} setup + {formatDollars(fees.monthlyFee)}/month, {DISTRIBUTOR_PROGRAM.trialDays}-day free
        trial
      </p>
      {failed && (
        <p role="alert" className="flex items-start gap-2 text-sm font-medium text-destructive">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {failed}
        </p>
      )}
      <Button type="submit" size="lg" className="h-auto min-h-11 w-full whitespace-normal px-4 py-2" disabled={processing}>
        {processing ? (
          <>
            <LoaderCircle className="motion-safe:animate-spin" aria-hidden />
            Processing...
          </>
        ) : (
          <>
            <Lock aria-hidden />
            Continue to Payment
          </>
        )}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        Payment opens in a new tab. Today you pay the {formatDollars(fees.setupFee)} setup fee; the{" "}
        {formatDollars(fees.monthlyFee)}/month subscription starts after the {DISTRIBUTOR_PROGRAM.trialDays}-day free trial.
      </p>
      <LegalNotice action="continuing to payment" className="text-center text-xs text-muted-foreground" />
    </form>
  );
}

/** Too many checkouts says how long to wait; any other refusal is the spec's payment failure. */
function failureMessage(failure: { code: string; message?: string }): string {
  return refusalLine(checkoutRefusalText(failure, "distributor"));
}

/**
 * A field the server refused, with the schema's words for it (app/lib/checkout-request.ts): the
 * same words this form checks with, plus the limits only the server checks (length, characters).
 */
function fieldErrorOf(failure: { code: string; message?: string; field?: string } | null | undefined): DistributorFieldErrors {
  if (failure?.code !== "invalid_input" || !failure.field || !failure.message) return {};
  return FIELDS.some((f) => f.name === failure.field) ? { [failure.field]: failure.message } : {};
}
