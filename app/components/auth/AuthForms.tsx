import { CircleCheck } from "lucide-react";
import type * as React from "react";
import { Form, Link } from "react-router";
import { LegalNotice } from "~/components/legal/LegalNotice";
import { Button } from "~/components/ui/button";
import type { AuthActionResult } from "~/server/auth/auth-actions.server";
import { Field, FormAlert, FormStatus, SubmitButton, useSubmitting } from "./Field";
import { AUTH_TEXT, TWO_FACTOR_TEXT, type SignInNote } from "~/lib/auth-messages";

type Result = AuthActionResult | null;

function Divider() {
  return (
    <div className="relative my-5 text-center text-xs uppercase text-muted-foreground">
      <span aria-hidden className="absolute inset-x-0 top-1/2 border-t" />
      <span className="relative bg-card px-2">Or continue with</span>
    </div>
  );
}

export function SignInForm({
  result,
  next,
  notice,
  forgotHref,
  google,
}: {
  result: Result;
  next?: string;
  notice: SignInNote | null;
  forgotHref: string;
  google: React.ReactNode | null;
}) {
  const busy = useSubmitting("signin");
  const error = result && !result.ok ? result : null;
  return (
    <>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="signin" />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        {notice ? <FormStatus title={notice.title} message={notice.message} /> : null}
        {error ? <FormAlert id="signin-alert" message={error.message} /> : null}
        <Field
          id="signin-email"
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
        <Field
          id="signin-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          maxLength={1024}
          error={error?.fieldErrors?.password}
          aside={
            <Link to={forgotHref} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Forgot password?
            </Link>
          }
        />
        <SubmitButton busy={busy} idle="Sign In" busyLabel="Signing in..." />
      </Form>
      {google ? (
        <>
          <Divider />
          {google}
        </>
      ) : null}
    </>
  );
}

export function SignUpForm({
  result,
  next,
  signInHref,
  google,
}: {
  result: Result;
  next?: string;
  signInHref: string;
  google: React.ReactNode | null;
}) {
  const busy = useSubmitting("signup");
  if (result?.ok) {
    return (
      <div className="flex flex-col items-center gap-3 py-4 text-center">
        <span className="grid size-14 place-items-center rounded-full bg-emerald-100 text-emerald-700">
          <CircleCheck className="size-7" aria-hidden />
        </span>
        <output className="block text-base font-semibold">{result.message}</output>
        <p className="text-sm text-muted-foreground">
          {result.returnsTo === "page"
            ? "The link in the email signs you in and brings you back to where you were, with your choices."
            : "The link in the email signs you in and opens your dashboard."}
        </p>
        <Link to={signInHref} className="text-sm font-medium text-primary underline underline-offset-4">
          Back to sign in
        </Link>
      </div>
    );
  }
  const error = result && !result.ok ? result : null;
  const fe = error?.fieldErrors;
  return (
    <>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="signup" />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        {error ? <FormAlert id="signup-alert" message={error.message} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="signup-first-name"
            name="firstName"
            label="First name"
            autoComplete="given-name"
            maxLength={100}
            defaultValue={error?.values?.firstName}
            error={fe?.firstName}
          />
          <Field
            id="signup-last-name"
            name="lastName"
            label="Last name"
            autoComplete="family-name"
            maxLength={100}
            defaultValue={error?.values?.lastName}
            error={fe?.lastName}
          />
        </div>
        <Field
          id="signup-company"
          name="companyName"
          label="Company name (optional)"
          autoComplete="organization"
          maxLength={100}
          defaultValue={error?.values?.companyName}
          error={fe?.companyName}
        />
        <Field
          id="signup-email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          required
          maxLength={254}
          placeholder="you@company.com"
          defaultValue={error?.values?.email}
          error={fe?.email}
        />
        <PasswordField id="signup-password" error={fe?.password} />
        <LegalNotice action="creating an account" />
        <SubmitButton busy={busy} idle="Create Account" busyLabel="Creating account..." />
      </Form>
      {google ? (
        <>
          <Divider />
          {google}
        </>
      ) : null}
    </>
  );
}

/** A new password: 8 to 128 characters, no composition rules (docs/decisions/0006-accounts.md). */
function PasswordField({ id, label = "Password", error }: { id: string; label?: string; error?: string }) {
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1">
      <Field
        id={id}
        name="password"
        type="password"
        label={label}
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        error={error}
        aria-describedby={error ? `${id}-error ${hintId}` : hintId}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        At least 8 characters. A long passphrase is best.
      </p>
    </div>
  );
}

/** Rendered only when Google sign-in is configured (the page passes none otherwise). */
export function GoogleButton({ next }: { next?: string }) {
  const busy = useSubmitting("google");
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="google" />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Button type="submit" variant="outline" size="lg" className="w-full" disabled={busy}>
        <GoogleLogo />
        Continue with Google
      </Button>
    </Form>
  );
}

function GoogleLogo() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden className="size-4">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path
        fill="#FBBC05"
        d="M5.84 14.1A6.6 6.6 0 0 1 5.5 12c0-.73.13-1.44.34-2.1V7.06H2.18A11 11 0 0 0 1 12c0 1.77.43 3.45 1.18 4.94l3.66-2.84z"
      />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15A10.56 10.56 0 0 0 12 1 11 11 0 0 0 2.18 7.06l3.66 2.84C6.71 7.3 9.14 5.38 12 5.38z"
      />
    </svg>
  );
}

export function ForgotPasswordForm({
  result,
  linkInvalid,
  signInHref,
}: {
  result: Result;
  linkInvalid: boolean;
  signInHref: string;
}) {
  const busy = useSubmitting("forgot");
  const error = result && !result.ok ? result : null;
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="forgot" />
      {result?.ok ? <FormStatus message={result.message} /> : null}
      {error ? <FormAlert id="forgot-alert" message={error.message} /> : null}
      {!result && linkInvalid ? <FormAlert message={AUTH_TEXT.resetLinkInvalid} /> : null}
      <Field
        id="forgot-email"
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
      <SubmitButton busy={busy} idle="Send reset link" busyLabel="Sending..." />
      <p className="text-center text-sm">
        <Link to={signInHref} className="font-medium text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </Form>
  );
}

export function ResetPasswordForm({ token, result, signInHref }: { token: string; result: Result; signInHref: string }) {
  const busy = useSubmitting("reset");
  const error = result && !result.ok ? result : null;
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="reset" />
      <input type="hidden" name="token" value={token} />
      {error ? <FormAlert id="reset-alert" message={error.message} /> : null}
      <PasswordField id="reset-password" label="New password" error={error?.fieldErrors?.password} />
      <SubmitButton busy={busy} idle="Set new password" busyLabel="Saving..." />
      <p className="text-center text-sm">
        <Link to={signInHref} className="font-medium text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </Form>
  );
}

/** The sign-in's second step: a code from the authenticator app or a recovery code. */
export function TwoFactorForm({ result, next, signInHref }: { result: Result; next?: string; signInHref: string }) {
  const busy = useSubmitting("two-factor");
  const error = result && !result.ok && result.intent === "two-factor" ? result : null;
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="two-factor" />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <p className="text-sm text-muted-foreground">{TWO_FACTOR_TEXT.stepDescription}</p>
      <Field
        id="two-factor-code"
        name="code"
        label="Authentication code"
        autoComplete="one-time-code"
        inputMode="text"
        autoCapitalize="off"
        spellCheck={false}
        required
        maxLength={32}
        error={error?.fieldErrors?.code ?? (error ? error.message : undefined)}
      />
      <SubmitButton busy={busy} idle="Verify" busyLabel="Verifying..." />
      <p className="text-center text-sm">
        <Link to={signInHref} className="font-medium text-primary underline-offset-4 hover:underline">
          Use another account
        </Link>
      </p>
    </Form>
  );
}
