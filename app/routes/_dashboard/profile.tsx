import { useEffect, useRef } from "react";
import { data, Form, useActionData } from "react-router";
import { toast } from "sonner";
import { Field } from "~/components/auth/Field";
import { FormError, PageHeader, SubmitButton, useFocusAfterResult } from "~/components/dashboard/pages/common";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { auth } from "~/server/auth/auth.server";
import { requireUser } from "~/server/auth/session.server";
import { changePassword } from "~/server/profile/change-password.server";
import { displayName, fieldErrors, passwordInput, PROFILE_FIELD_MAX, profileInput } from "~/server/profile/profile.server";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => [{ title: "Profile | AI Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return {
    email: user.email,
    firstName: user.firstName ?? "",
    lastName: user.lastName ?? "",
    companyName: user.companyName ?? "",
    // Sign-up's limits (USER_FIELD_LIMITS), from the server module that holds them.
    limits: PROFILE_FIELD_MAX,
  };
}

type ActionResult =
  | { intent: "profile"; ok: true }
  | { intent: "password"; ok: true }
  | { intent: "profile" | "password"; ok: false; errors: Record<string, string>; values?: Record<string, string> };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = Object.fromEntries(await request.formData());
  const fields = Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string")) as Record<string, string>;

  if (fields.intent === "profile") {
    const parsed = profileInput.safeParse(fields);
    if (!parsed.success) {
      return data<ActionResult>(
        { intent: "profile", ok: false, errors: fieldErrors(parsed.error), values: fields },
        { status: 400 },
      );
    }
    const { firstName, lastName, companyName } = parsed.data;
    // Through Better Auth (not a direct UPDATE) so its session cache and hooks stay consistent.
    const response = await auth().api.updateUser({
      headers: request.headers,
      body: { firstName, lastName, companyName, name: displayName(parsed.data, user.email) },
      asResponse: true,
    });
    if (!response.ok) {
      // Better Auth's own checks (its user-field hook) answer 400 with a message: the form shows it.
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      return data<ActionResult>(
        {
          intent: "profile",
          ok: false,
          errors: { form: body?.message ?? "Could not save your profile. Please try again." },
          values: fields,
        },
        { status: response.status >= 500 ? 500 : 400 },
      );
    }
    return data<ActionResult>({ intent: "profile", ok: true });
  }

  if (fields.intent === "password") {
    const parsed = passwordInput.safeParse(fields);
    if (!parsed.success) {
      return data<ActionResult>({ intent: "password", ok: false, errors: fieldErrors(parsed.error) }, { status: 400 });
    }
    const { currentPassword, newPassword, revokeOtherSessions } = parsed.data;
    const changed = await changePassword(request, { currentPassword, newPassword, revokeOtherSessions });
    if (!changed.ok) {
      // Refusals, the rate limits' 429 among them, are shown in the form.
      return data<ActionResult>({ intent: "password", ok: false, errors: changed.errors }, { status: changed.status });
    }
    // Revoking other sessions issues a new session cookie for this one, and the device cookie gets
    // the account's new epoch: pass them on.
    const headers = new Headers();
    for (const cookie of changed.setCookies) headers.append("Set-Cookie", cookie);
    return data<ActionResult>({ intent: "password", ok: true }, { headers });
  }

  return data<ActionResult>({ intent: "profile", ok: false, errors: { form: "Unknown action" } }, { status: 400 });
}

export default function ProfilePage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const profileErrors = result && !result.ok && result.intent === "profile" ? result.errors : {};
  const passwordErrors = result && !result.ok && result.intent === "password" ? result.errors : {};
  const values = result && !result.ok && result.intent === "profile" ? result.values : undefined;
  const profileForm = useRef<HTMLFormElement>(null);
  const passwordForm = useRef<HTMLFormElement>(null);
  useFocusAfterResult(profileForm, result?.intent === "profile" ? result : undefined);
  useFocusAfterResult(passwordForm, result?.intent === "password" ? result : undefined);

  useEffect(() => {
    if (result?.ok && result.intent === "profile") toast.success("Profile updated");
    if (result?.ok && result.intent === "password") toast.success("Password changed");
  }, [result]);

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Profile" description="Your name, company and password." />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Personal details</h2>
            <CardDescription>Signed in as {loaderData.email}</CardDescription>
          </CardHeader>
          <CardContent>
            {/* key: a successful save resets the inputs to the new loader values. */}
            <Form ref={profileForm} method="post" className="grid gap-4" noValidate key={JSON.stringify(loaderData)}>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  id="firstName"
                  label="First name"
                  name="firstName"
                  autoComplete="given-name"
                  defaultValue={values?.firstName ?? loaderData.firstName}
                  maxLength={loaderData.limits.firstName}
                  error={profileErrors.firstName}
                />
                <Field
                  id="lastName"
                  label="Last name"
                  name="lastName"
                  autoComplete="family-name"
                  defaultValue={values?.lastName ?? loaderData.lastName}
                  maxLength={loaderData.limits.lastName}
                  error={profileErrors.lastName}
                />
              </div>
              <Field
                id="companyName"
                label="Company name"
                name="companyName"
                autoComplete="organization"
                defaultValue={values?.companyName ?? loaderData.companyName}
                maxLength={loaderData.limits.companyName}
                error={profileErrors.companyName}
              />
              <FormError message={profileErrors.form} />
              {result?.ok && result.intent === "profile" ? (
                <output className="block text-sm text-emerald-700">Profile updated.</output>
              ) : null}
              <div>
                <SubmitButton intent="profile" pendingText="Saving..." keepFocus>
                  Save changes
                </SubmitButton>
              </div>
            </Form>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Change password</h2>
            <CardDescription>At least 8 characters.</CardDescription>
          </CardHeader>
          <CardContent>
            <Form
              ref={passwordForm}
              method="post"
              className="grid gap-4"
              noValidate
              key={result?.ok && result.intent === "password" ? "done" : "form"}
            >
              <Field
                id="currentPassword"
                label="Current password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                required
                error={passwordErrors.currentPassword}
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  id="newPassword"
                  label="New password"
                  name="newPassword"
                  type="password"
                  autoComplete="new-password"
                  required
                  minLength={8}
                  error={passwordErrors.newPassword}
                />
                <Field
                  id="confirmPassword"
                  label="Confirm new password"
                  name="confirmPassword"
                  type="password"
                  autoComplete="new-password"
                  required
                  error={passwordErrors.confirmPassword}
                />
              </div>
              <div className="flex items-center gap-2">
                <input id="revokeOtherSessions" name="revokeOtherSessions" type="checkbox" className="size-4 accent-primary" />
                <Label htmlFor="revokeOtherSessions">Sign out of other devices</Label>
              </div>
              <FormError message={passwordErrors.form} />
              {result?.ok && result.intent === "password" ? (
                <output className="block text-sm text-emerald-700">Password changed.</output>
              ) : null}
              <div>
                <SubmitButton intent="password" pendingText="Changing..." keepFocus>
                  Change password
                </SubmitButton>
              </div>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
