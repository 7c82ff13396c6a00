import { ShieldCheck } from "lucide-react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/dashboard/pages/common";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export interface TwoFactorSetupView {
  totpURI: string;
  qrSvg: string;
  manualKey: string;
  backupCodes: string[];
}

/** Why the page was opened: /admin sends operators here, and each step's outcome comes back here. */
export type TwoFactorNotice = "required" | "sign-in-again" | "enabled" | "disabled" | null;

const NOTICES: Record<Exclude<TwoFactorNotice, null>, { tone: "warn" | "ok"; text: string }> = {
  required: {
    tone: "warn",
    text: "Operators must turn on two-factor authentication before they can open the operations console.",
  },
  "sign-in-again": {
    tone: "warn",
    text: "The operations console needs a session opened with your authentication code: sign out, then sign in with your password and code.",
  },
  enabled: { tone: "ok", text: "Two-factor authentication is on. Each sign-in now asks for a code." },
  disabled: { tone: "ok", text: "Two-factor authentication is off." },
};

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm font-medium text-destructive">
      {message}
    </p>
  ) : null;
}

/** Settings → Two-factor authentication: turn on (password, QR code, first code), recovery codes, turn off. */
export function TwoFactorCard({
  enabled,
  notice,
  setup,
  errors,
}: {
  enabled: boolean;
  notice: TwoFactorNotice;
  setup?: TwoFactorSetupView;
  errors: Record<string, string>;
}) {
  const shown = notice ? NOTICES[notice] : null;
  return (
    <Card id="two-factor">
      <CardHeader>
        <h2 className="flex items-center gap-2 text-xl font-semibold leading-tight tracking-tight">
          <ShieldCheck className="size-5 text-primary" aria-hidden />
          Two-factor authentication
        </h2>
        <CardDescription>
          {enabled
            ? "On: every sign-in with your password also asks for a code from your authenticator app."
            : "Protect your account with a code from an authenticator app (Google Authenticator, 1Password, Authy...) at each sign-in."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {shown ? (
          <p
            role={shown.tone === "warn" ? "alert" : "status"}
            className={
              shown.tone === "warn"
                ? "rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900"
                : "rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800"
            }
          >
            {shown.text}
          </p>
        ) : null}
        {enabled ? (
          <Form method="post" className="grid max-w-sm gap-2">
            <Label htmlFor="two-factor-disable-password">Password</Label>
            <Input
              id="two-factor-disable-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={1024}
              aria-invalid={errors.twoFactorDisable ? true : undefined}
              aria-describedby={errors.twoFactorDisable ? "two-factor-disable-error" : undefined}
            />
            <FieldError id="two-factor-disable-error" message={errors.twoFactorDisable} />
            <div>
              <SubmitButton intent="two-factor-disable" pendingText="Turning off..." variant="destructive">
                Turn off two-factor authentication
              </SubmitButton>
            </div>
          </Form>
        ) : setup ? (
          <div className="grid gap-5">
            <ol className="grid gap-5 text-sm">
              <li className="grid gap-3">
                <p className="font-semibold">1. Scan this QR code with your authenticator app</p>
                {/* The key below is the same secret as text, for screen readers and typing by hand. */}
                <div
                  aria-hidden="true"
                  data-testid="two-factor-qr"
                  className="size-48 rounded-md border bg-white p-2 [&>svg]:size-full"
                  dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
                />
                <p className="text-muted-foreground">
                  Or enter this key by hand:{" "}
                  <code
                    data-testid="two-factor-key"
                    className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-foreground"
                  >
                    {setup.manualKey}
                  </code>
                </p>
              </li>
              {setup.backupCodes.length ? (
                <li className="grid gap-2">
                  <p className="font-semibold">2. Save your recovery codes</p>
                  <p className="text-muted-foreground">
                    Each one signs you in once if you lose your phone. They are shown only now: download or copy them.
                  </p>
                  <ul
                    data-testid="recovery-codes"
                    className="grid grid-cols-2 gap-1 rounded-md border bg-muted/50 p-3 font-mono text-sm sm:grid-cols-3"
                  >
                    {setup.backupCodes.map((c) => (
                      <li key={c}>{c}</li>
                    ))}
                  </ul>
                  <a
                    href={`data:text/plain;charset=utf-8,${encodeURIComponent(setup.backupCodes.join("\n") + "\n")}`}
                    download="ai-automation-apps-recovery-codes.txt"
                    className="w-fit text-sm font-medium text-primary underline underline-offset-4"
                  >
                    Download recovery codes
                  </a>
                </li>
              ) : null}
            </ol>
            <Form method="post" className="grid max-w-sm gap-2">
              <input type="hidden" name="totpURI" value={setup.totpURI} />
              <input type="hidden" name="backupCodes" value={setup.backupCodes.join(",")} />
              <Label htmlFor="two-factor-code">{setup.backupCodes.length ? "3." : "2."} Enter the 6-digit code it shows</Label>
              <Input
                id="two-factor-code"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={8}
                required
                aria-invalid={errors.twoFactorCode ? true : undefined}
                aria-describedby={errors.twoFactorCode ? "two-factor-code-error" : undefined}
              />
              <FieldError id="two-factor-code-error" message={errors.twoFactorCode} />
              <div>
                <SubmitButton intent="two-factor-verify" pendingText="Checking...">
                  Verify and turn on
                </SubmitButton>
              </div>
            </Form>
          </div>
        ) : (
          <Form method="post" className="grid max-w-sm gap-2">
            <Label htmlFor="two-factor-password">Password</Label>
            <Input
              id="two-factor-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={1024}
              aria-invalid={errors.twoFactorPassword ? true : undefined}
              aria-describedby={errors.twoFactorPassword ? "two-factor-password-error" : undefined}
            />
            <FieldError id="two-factor-password-error" message={errors.twoFactorPassword} />
            <div>
              <SubmitButton intent="two-factor-enable" pendingText="Preparing...">
                Turn on two-factor authentication
              </SubmitButton>
            </div>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
