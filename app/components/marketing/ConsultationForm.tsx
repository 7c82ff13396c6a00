import type * as React from "react";
import { useRef, useState } from "react";
import {
  BUDGETS,
  CALLBACK_FIELDS,
  CALLBACK_REQUIRED_MESSAGE,
  type CallbackField,
  MARKETING_CONSENT_FIELD,
  MARKETING_CONSENT_TEXT,
  missingCallbackFields,
  PREFERRED_TIMES,
  PROJECT_TYPES,
  TIMEFRAMES,
} from "~/catalogue/callback";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import { PRIVACY_PATH } from "~/catalogue/legal";
import { LegalLink } from "~/components/legal/LegalNotice";
import { buttonVariants } from "~/components/ui/button";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { useHydrated } from "~/lib/use-hydrated";

const CALLBACK_SUCCESS_TITLE = "Callback Requested!";
const CALLBACK_SUCCESS_DESCRIPTION = "We'll contact you within 24 hours to schedule your consultation.";
const CALLBACK_FAILURE_TITLE = "Submission failed";
const CALLBACK_FAILURE_FALLBACK = "Please try again later";

/** What the server answered (POST /api/callback, or the page's action for a form posted without JS). */
export interface CallbackResult {
  ok?: boolean;
  error?: string;
  fields?: Partial<Record<string, string>>;
  /** The submitted values, echoed back by the page's action so a failed no-JS post keeps the form. */
  values?: Partial<Record<CallbackField, string>>;
  /** Whether the marketing box was ticked, echoed back with `values`. */
  consent?: boolean;
}

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

function Select({
  id,
  placeholder,
  options,
  defaultValue,
}: {
  id: CallbackField;
  placeholder: string;
  options: readonly string[];
  defaultValue?: string;
}) {
  return (
    <NativeSelect id={id} name={id} defaultValue={defaultValue ?? ""}>
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </NativeSelect>
  );
}

const isField = (key: string): key is CallbackField => (CALLBACK_FIELDS as readonly string[]).includes(key);

/**
 * The personal-guidance callback form of /live-training (spec sections 3, 4, 5 and 8): idle ->
 * 'Submitting...' -> toast 'Callback Requested!' (also kept in the form's status output) and a
 * cleared form, or toast 'Submission failed' and the form kept. firstName, email and phone are required ('Please fill in required fields', no call).
 * With JavaScript it posts JSON to /api/callback; without, the form posts to the page, whose action
 * stores the lead the same way and renders `result`. `website` is a honeypot people never see.
 */
export function ConsultationForm({ result }: { result?: CallbackResult }) {
  const form = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  const initialInvalid = Object.keys(result?.fields ?? {}).filter(isField);
  const [invalid, setInvalid] = useState<CallbackField[]>(initialInvalid);
  const [message, setMessage] = useState<string | null>(
    result && !result.ok ? (result.error ?? CALLBACK_FAILURE_FALLBACK) : null,
  );
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Remounting the fields clears them, including values echoed back by a no-JS post.
  const [generation, setGeneration] = useState(0);
  const [values, setValues] = useState<Partial<Record<CallbackField, string>>>(result && !result.ok ? (result.values ?? {}) : {});
  const [consent, setConsent] = useState(Boolean(result && !result.ok && result.consent));
  const [sent, setSent] = useState(Boolean(result?.ok));

  const toast = (n: Omit<Notice, "id">) => setNotice((prev) => ({ ...n, id: (prev?.id ?? 0) + 1 }));

  function focusField(field: CallbackField | undefined) {
    if (field) form.current?.querySelector<HTMLElement>(`#${field}`)?.focus();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const data = new FormData(event.currentTarget);
    const body = Object.fromEntries([...data.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
    const missing = missingCallbackFields(body);
    setInvalid(missing);
    setSent(false);
    if (missing.length > 0) {
      setMessage(CALLBACK_REQUIRED_MESSAGE);
      focusField(missing[0]);
      return;
    }
    setMessage(null);
    setSubmitting(true);
    let answer: CallbackResult | null = null;
    try {
      const response = await fetch("/api/callback", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      answer = (await response.json().catch(() => null)) as CallbackResult | null;
      if (response.ok && answer?.ok) {
        setValues({});
        setConsent(false);
        setInvalid([]);
        setGeneration((g) => g + 1);
        // The toast disappears and may not be announced; the on-page status (the same one a no-JS
        // post renders) stays until the next submission, so screen readers get the confirmation.
        setSent(true);
        toast({ kind: "success", title: CALLBACK_SUCCESS_TITLE, description: CALLBACK_SUCCESS_DESCRIPTION });
        return;
      }
    } catch {
      answer = null;
    } finally {
      setSubmitting(false);
    }
    const error = answer?.error || CALLBACK_FAILURE_FALLBACK;
    const fields = Object.keys(answer?.fields ?? {}).filter(isField);
    if (fields.length) {
      setInvalid(fields);
      setMessage(error);
      focusField(fields[0]);
    }
    toast({ kind: "error", title: CALLBACK_FAILURE_TITLE, description: error });
  }

  const invalidProps = (f: CallbackField) =>
    invalid.includes(f) ? ({ "aria-invalid": true, "aria-describedby": "consultation-error" } as const) : {};

  return (
    <>
      <form
        ref={form}
        method="post"
        // Native validation is the fallback without JavaScript; once hydrated we check and explain ourselves.
        noValidate={hydrated}
        onSubmit={(e) => void onSubmit(e)}
        aria-labelledby="consultation-title"
        aria-busy={submitting}
        className="relative grid grid-cols-1 gap-5 sm:grid-cols-2"
      >
        <p className="text-sm text-muted-foreground sm:col-span-2">
          Fields marked <span className="text-destructive">*</span> are required.
        </p>
        <div key={generation} className="contents">
          <Field id="firstName" label="First Name" required>
            <Input
              id="firstName"
              name="firstName"
              autoComplete="given-name"
              required
              maxLength={100}
              defaultValue={values.firstName}
              {...invalidProps("firstName")}
            />
          </Field>
          <Field id="lastName" label="Last Name">
            <Input id="lastName" name="lastName" autoComplete="family-name" maxLength={100} defaultValue={values.lastName} />
          </Field>
          <Field id="email" label="Email" required>
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={values.email}
              {...invalidProps("email")}
            />
          </Field>
          <Field id="phone" label="Phone" required>
            <Input
              id="phone"
              name="phone"
              type="tel"
              autoComplete="tel"
              required
              maxLength={40}
              defaultValue={values.phone}
              {...invalidProps("phone")}
            />
          </Field>
          <Field id="company" label="Company">
            <Input id="company" name="company" autoComplete="organization" maxLength={200} defaultValue={values.company} />
          </Field>
          <Field id="projectType" label="Project Type">
            <Select
              id="projectType"
              placeholder="Select project type"
              options={PROJECT_TYPES}
              defaultValue={values.projectType}
            />
          </Field>
          <Field id="budget" label="Budget Range">
            <Select id="budget" placeholder="Select budget range" options={BUDGETS} defaultValue={values.budget} />
          </Field>
          <Field id="timeframe" label="Timeline">
            <Select id="timeframe" placeholder="Select timeline" options={TIMEFRAMES} defaultValue={values.timeframe} />
          </Field>
          <div className="sm:col-span-2">
            <Field id="message" label="Project Details">
              <Textarea
                id="message"
                name="message"
                rows={4}
                maxLength={2000}
                placeholder="Tell us what you would like to automate"
                defaultValue={values.message}
                {...invalidProps("message")}
              />
            </Field>
          </div>
          <Field id="preferredTime" label="Preferred Call Time">
            <Select
              id="preferredTime"
              placeholder="Select a time"
              options={PREFERRED_TIMES}
              defaultValue={values.preferredTime}
            />
          </Field>
          {/* Unticked unless the visitor ticks it: the callback happens either way. */}
          <div className="flex items-start gap-3 sm:col-span-2">
            <input
              id={MARKETING_CONSENT_FIELD}
              name={MARKETING_CONSENT_FIELD}
              type="checkbox"
              defaultChecked={consent}
              className="mt-0.5 size-5 shrink-0 accent-primary"
            />
            <label htmlFor={MARKETING_CONSENT_FIELD} className="text-sm text-foreground">
              {MARKETING_CONSENT_TEXT} <span className="text-muted-foreground">(optional)</span>
            </label>
          </div>
        </div>
        {/* Honeypot: off-screen and out of the accessibility tree; a filled one is answered but never stored. */}
        <div aria-hidden="true" className="absolute -left-[10000px] top-0 h-px w-px overflow-hidden">
          <label htmlFor="website">Website</label>
          <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>

        <div className="flex flex-col gap-3 sm:col-span-2">
          <p className="text-xs text-muted-foreground">
            We use your details to arrange and hold your consultation, whether or not you tick the box above, as our{" "}
            <LegalLink to={PRIVACY_PATH}>Privacy Policy</LegalLink> describes.
          </p>
          <div
            id="consultation-error"
            role="alert"
            className={cn(message && "rounded-md bg-destructive px-4 py-3 text-sm font-medium text-white")}
          >
            {message}
          </div>
          <output className="block">
            {sent ? (
              <p className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-950">
                <strong>{CALLBACK_SUCCESS_TITLE}</strong> {CALLBACK_SUCCESS_DESCRIPTION}
              </p>
            ) : null}
          </output>
          <button
            type="submit"
            disabled={submitting}
            className={cn(buttonVariants({ size: "lg" }), "w-full sm:w-auto sm:self-start")}
          >
            {submitting ? "Submitting..." : "Request Callback"}
          </button>
        </div>
      </form>
      <LazyToaster notice={notice} />
    </>
  );
}
