import { CircleCheck } from "lucide-react";
import { useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Field, FormAlert, SubmitButton, useSubmitting } from "~/components/auth/Field";
import { LegalNotice } from "~/components/legal/LegalNotice";
import { useTypedBeforeHydration } from "~/lib/use-hydrated";
import type { AffiliateActionResult } from "~/server/affiliates/signup.server";
import { AFFILIATE_TEXT } from "~/lib/affiliate-messages";
import {
  isReservedUsername,
  normalizeUsername,
  USERNAME_HINT,
  USERNAME_MAX,
  USERNAME_RESERVED,
  usernameBase,
} from "~/catalogue/username";

type Result = AffiliateActionResult | null;

/**
 * The referral link a username field would give: what is typed, normalised as the server stores it
 * (trimmed, lower-case), or `fallback` while the field is empty.
 */
function referralLinkPreview(siteUrl: string, typed: string, fallback: string): string {
  return `${siteUrl}/ref/${normalizeUsername(typed) || fallback}`;
}

function UsernameField({
  id,
  error,
  defaultValue,
  placeholder,
  siteUrl,
  isExample,
}: {
  id: string;
  error?: string;
  defaultValue?: string;
  placeholder: string;
  siteUrl: string;
  /** The placeholder is only an example (the server picks the number) rather than the suggestion. */
  isExample: boolean;
}) {
  const hintId = `${id}-hint`;
  // The hint follows the field, so the link shown is the link the user will get. The field is
  // uncontrolled: what was typed before hydration stays in it (and is read into the hint).
  const [typed, setTyped] = useState(defaultValue ?? "");
  const field = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(field, setTyped);
  const empty = normalizeUsername(typed) === "";
  // Said while typing too; the server refuses it either way.
  const reserved = !empty && isReservedUsername(normalizeUsername(typed));
  return (
    <div className="space-y-1.5">
      <Field
        id={id}
        name="username"
        label="Username (optional)"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={USERNAME_MAX}
        placeholder={placeholder}
        ref={field}
        defaultValue={defaultValue ?? ""}
        onChange={(e) => setTyped(e.currentTarget.value)}
        error={error}
        aria-describedby={error ? `${id}-error ${hintId}` : hintId}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        {isExample && empty ? (
          <>
            {USERNAME_HINT}. Leave it empty for your name plus a number, e.g. {referralLinkPreview(siteUrl, "", placeholder)}
          </>
        ) : reserved ? (
          <>
            {USERNAME_HINT}. {USERNAME_RESERVED}
          </>
        ) : (
          <>
            {USERNAME_HINT}. Your link: <span className="break-all">{referralLinkPreview(siteUrl, typed, placeholder)}</span>
          </>
        )}
      </p>
    </div>
  );
}

/** The full form for a visitor: creates the account (verified by email) and, once verified, the affiliate. */
export function AffiliateSignUpForm({ result, siteUrl }: { result: Result; siteUrl: string }) {
  const busy = useSubmitting("signup");
  const error = result && !result.ok ? result : null;
  // The names only feed the username example; the fields are uncontrolled, so what was typed before
  // hydration stays in them (and is read in here).
  const [first, setFirst] = useState(error?.values?.firstName ?? "");
  const [last, setLast] = useState(error?.values?.lastName ?? "");
  const firstField = useRef<HTMLInputElement>(null);
  const lastField = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(firstField, setFirst);
  useTypedBeforeHydration(lastField, setLast);
  // A stable example number keeps server and browser renders identical.
  const example = `${usernameBase(first, last)}123`;

  if (result?.ok) {
    return (
      <output className="block space-y-4 text-center">
        <CircleCheck className="mx-auto size-12 text-emerald-600" aria-hidden />
        <h2 className="text-xl font-semibold">Check your email</h2>
        <p className="text-sm">{AFFILIATE_TEXT.checkEmail}</p>
        <p className="text-sm text-muted-foreground">{AFFILIATE_TEXT.checkEmailDetail}</p>
        {result.values?.username ? (
          <p className="text-sm text-muted-foreground">
            Your referral link will be{" "}
            <span className="break-all font-medium text-foreground">
              {siteUrl}/ref/{result.values.username}
            </span>
          </p>
        ) : null}
      </output>
    );
  }

  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="signup" />
      {error ? <FormAlert id="affiliate-alert" message={error.message} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="aff-first-name"
          name="firstName"
          label="First name"
          autoComplete="given-name"
          required
          maxLength={100}
          ref={firstField}
          defaultValue={error?.values?.firstName ?? ""}
          onChange={(e) => setFirst(e.currentTarget.value)}
          error={error?.fieldErrors?.firstName}
        />
        <Field
          id="aff-last-name"
          name="lastName"
          label="Last name"
          autoComplete="family-name"
          required
          maxLength={100}
          ref={lastField}
          defaultValue={error?.values?.lastName ?? ""}
          onChange={(e) => setLast(e.currentTarget.value)}
          error={error?.fieldErrors?.lastName}
        />
      </div>
      <Field
        id="aff-email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        required
        maxLength={254}
        placeholder="you@company.com"
        defaultValue={error?.values?.email}
        error={error?.fieldErrors?.email}
      />
      <div className="space-y-1.5">
        <Field
          id="aff-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          error={error?.fieldErrors?.password}
          aria-describedby={error?.fieldErrors?.password ? "aff-password-error aff-password-hint" : "aff-password-hint"}
        />
        <p id="aff-password-hint" className="text-xs text-muted-foreground">
          {AFFILIATE_TEXT.passwordHint}
        </p>
      </div>
      <Field
        id="aff-business"
        name="businessName"
        label="Business name (optional)"
        autoComplete="organization"
        maxLength={100}
        defaultValue={error?.values?.businessName}
        error={error?.fieldErrors?.businessName}
      />
      <UsernameField
        id="aff-username"
        error={error?.fieldErrors?.username}
        defaultValue={error?.values?.username}
        placeholder={example}
        siteUrl={siteUrl}
        isExample
      />
      <LegalNotice action="joining the affiliate program" />
      <SubmitButton busy={busy} idle="Join the Affiliate Program" busyLabel="Creating your account..." />
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link to="/auth?next=%2Faffiliate-signup" className="font-semibold text-primary underline-offset-4 hover:underline">
          Sign in
        </Link>{" "}
        or{" "}
        <Link to="/auth?tab=signup" className="font-semibold text-primary underline-offset-4 hover:underline">
          create a customer account
        </Link>
      </p>
    </Form>
  );
}

/** The short form for a signed-in user who is not an affiliate yet. */
export function JoinAffiliateForm({
  result,
  siteUrl,
  suggestion,
  businessName,
  email,
}: {
  result: Result;
  siteUrl: string;
  suggestion: string;
  businessName: string | null;
  email: string;
}) {
  const busy = useSubmitting("join");
  const error = result && !result.ok ? result : null;
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="join" />
      <p className="text-sm text-muted-foreground">
        Signed in as <span className="font-medium text-foreground">{email}</span>. Pick the username of your referral link.
      </p>
      {error ? <FormAlert id="affiliate-alert" message={error.message} /> : null}
      <UsernameField
        id="join-username"
        error={error?.fieldErrors?.username}
        defaultValue={error?.values?.username ?? suggestion}
        placeholder={suggestion}
        siteUrl={siteUrl}
        isExample={false}
      />
      <Field
        id="join-business"
        name="businessName"
        label="Business name (optional)"
        autoComplete="organization"
        maxLength={100}
        defaultValue={error?.values?.businessName ?? businessName ?? ""}
        error={error?.fieldErrors?.businessName}
      />
      <LegalNotice action="joining the affiliate program" />
      <SubmitButton busy={busy} idle="Become an Affiliate" busyLabel="Setting up..." />
    </Form>
  );
}
