import type * as React from "react";
import { useRef, useState } from "react";
import {
  BUDGETS,
  CALLBACK_REQUIRED_MESSAGE,
  type CallbackField,
  missingCallbackFields,
  PREFERRED_TIMES,
  PROJECT_TYPES,
  TIMEFRAMES,
} from "~/catalogue/callback";
import { buttonVariants } from "~/components/ui/button";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { useHydrated } from "~/lib/use-hydrated";

/** Shown instead of a success state until the callback endpoint (lead storage + Mailchimp) exists. */
export const CALLBACK_UNAVAILABLE_MESSAGE =
  "Online consultation requests are not available yet, so nothing was sent. Please book a demo instead and we will call you.";

const labelClass = "text-sm font-medium text-foreground";

function Field({ id, label, required, children }: { id: string; label: string; required?: boolean; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={labelClass}>
        {label}
        {required ? (
          <span className="text-destructive" aria-hidden>
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children}
    </div>
  );
}

function Select({ id, placeholder, options }: { id: CallbackField; placeholder: string; options: readonly string[] }) {
  return (
    <NativeSelect id={id} name={id} defaultValue="">
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </NativeSelect>
  );
}

/**
 * The personal-guidance callback form of /live-training (spec sections 3 and 5). Today it checks the
 * required fields in the browser (firstName, email, phone: 'Please fill in required fields'); the
 * server side (lead storage, Mailchimp delivery, the 'Submitting...' state) arrives with the leads issue.
 * `notice` is the message the route's action returned for a submission made without JavaScript.
 */
export function ConsultationForm({ notice, bookDemoUrl }: { notice?: string; bookDemoUrl: string }) {
  const form = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  const [invalid, setInvalid] = useState<CallbackField[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(notice ?? null);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = Object.fromEntries([...data.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
    const missing = missingCallbackFields(values);
    setInvalid(missing);
    if (missing.length > 0) {
      setInfo(null);
      setMessage(CALLBACK_REQUIRED_MESSAGE);
      form.current?.querySelector<HTMLElement>(`#${missing[0]}`)?.focus();
      return;
    }
    setMessage(null);
    // No endpoint yet: say so plainly instead of pretending the request went through.
    setInfo(CALLBACK_UNAVAILABLE_MESSAGE);
  }

  const invalidProps = (f: CallbackField) =>
    invalid.includes(f) ? ({ "aria-invalid": true, "aria-describedby": "consultation-error" } as const) : {};

  return (
    <form
      ref={form}
      method="post"
      // Native validation is the fallback without JavaScript; once hydrated we check and explain ourselves.
      noValidate={hydrated}
      onSubmit={onSubmit}
      aria-labelledby="consultation-title"
      className="grid grid-cols-1 gap-5 sm:grid-cols-2"
    >
      <p className="text-sm text-muted-foreground sm:col-span-2">
        Fields marked <span className="text-destructive">*</span> are required.
      </p>
      <Field id="firstName" label="First Name" required>
        <Input id="firstName" name="firstName" autoComplete="given-name" required {...invalidProps("firstName")} />
      </Field>
      <Field id="lastName" label="Last Name">
        <Input id="lastName" name="lastName" autoComplete="family-name" />
      </Field>
      <Field id="email" label="Email" required>
        <Input id="email" name="email" type="email" autoComplete="email" required {...invalidProps("email")} />
      </Field>
      <Field id="phone" label="Phone" required>
        <Input id="phone" name="phone" type="tel" autoComplete="tel" required {...invalidProps("phone")} />
      </Field>
      <Field id="company" label="Company">
        <Input id="company" name="company" autoComplete="organization" />
      </Field>
      <Field id="projectType" label="Project Type">
        <Select id="projectType" placeholder="Select project type" options={PROJECT_TYPES} />
      </Field>
      <Field id="budget" label="Budget Range">
        <Select id="budget" placeholder="Select budget range" options={BUDGETS} />
      </Field>
      <Field id="timeframe" label="Timeline">
        <Select id="timeframe" placeholder="Select timeline" options={TIMEFRAMES} />
      </Field>
      <div className="sm:col-span-2">
        <Field id="message" label="Project Details">
          <Textarea id="message" name="message" rows={4} placeholder="Tell us what you would like to automate" />
        </Field>
      </div>
      <Field id="preferredTime" label="Preferred Call Time">
        <Select id="preferredTime" placeholder="Select a time" options={PREFERRED_TIMES} />
      </Field>

      <div className="flex flex-col gap-3 sm:col-span-2">
        <div
          id="consultation-error"
          role="alert"
          className={cn(message && "rounded-md bg-destructive px-4 py-3 text-sm font-medium text-white")}
        >
          {message}
        </div>
        <output className="block">
          {info ? (
            <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
              {info}{" "}
              <a href={bookDemoUrl} target="_blank" rel="noopener noreferrer" className="font-semibold underline">
                Book a demo<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </p>
          ) : null}
        </output>
        <button type="submit" className={cn(buttonVariants({ size: "lg" }), "w-full sm:w-auto sm:self-start")}>
          Request Callback
        </button>
      </div>
    </form>
  );
}
