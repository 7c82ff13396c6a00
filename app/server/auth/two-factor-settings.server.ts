import QRCode from "qrcode";
import { data, redirect } from "react-router";
import { z } from "zod";
import { callAuth, cookieHeaders, errorCode, tooManyMessage } from "./auth-actions.server";

/**
 * Settings → Two-factor authentication (docs/decisions/0073-two-factor.md): turning it on with the
 * password (Better Auth makes the TOTP secret and the recovery codes), confirming it with a first code,
 * and turning it off with the password. Every step goes through Better Auth's HTTP handler, so its
 * per-address limits and our per-account password throttle apply as to any other password check.
 */
const TWO_FACTOR_INTENTS = ["two-factor-enable", "two-factor-verify", "two-factor-disable"] as const;
export type TwoFactorIntent = (typeof TWO_FACTOR_INTENTS)[number];

export const isTwoFactorIntent = (value: unknown): value is TwoFactorIntent => TWO_FACTOR_INTENTS.some((i) => i === value);

/** What the page needs to finish an enrolment: the QR code, the key typed by hand, the recovery codes. */
export interface TwoFactorSetup {
  totpURI: string;
  qrSvg: string;
  manualKey: string;
  backupCodes: string[];
}

export interface TwoFactorActionData {
  ok: boolean;
  saved: "two-factor";
  errors: Record<string, string>;
  setup?: TwoFactorSetup;
}

const password = z.string({ error: "Enter your password" }).min(1, "Enter your password").max(1024, "Password is too long");
const code = z
  .string({ error: "Enter the 6-digit code" })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app"));
/** Echoed back by the confirmation form only to show the same QR code again after a wrong code. */
const echoedUri = z
  .string()
  .max(512)
  .refine((v) => v.startsWith("otpauth://totp/"));
const echoedCodes = z
  .string()
  .max(400)
  .transform((v) => v.split(",").filter(Boolean))
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9-]{1,20}$/)).max(20));

async function setupOf(totpURI: string, backupCodes: string[]): Promise<TwoFactorSetup> {
  const qrSvg = await QRCode.toString(totpURI, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  const manualKey = new URL(totpURI).searchParams.get("secret") ?? "";
  return { totpURI, qrSvg, manualKey, backupCodes };
}

const answer = (body: Omit<TwoFactorActionData, "saved">, status = 200, headers?: Headers) =>
  data<TwoFactorActionData>({ ...body, saved: "two-factor" }, { status, headers });

const PASSWORD_WRONG = "That password is not correct.";

/** One of the three steps; `form` is the settings page's posted form. */
export async function handleTwoFactorIntent(request: Request, intent: TwoFactorIntent, form: FormData) {
  if (intent === "two-factor-enable") {
    const parsed = password.safeParse(form.get("password"));
    if (!parsed.success) return answer({ ok: false, errors: { twoFactorPassword: parsed.error.issues[0]!.message } }, 400);
    const result = await callAuth(request, "/two-factor/enable", { password: parsed.data });
    if (result.status === 429) return answer({ ok: false, errors: { twoFactorPassword: tooManyMessage(result) } }, 429);
    if (result.status !== 200) {
      const message = errorCode(result) === "TOTP_ALREADY_ENABLED" ? "Two-factor authentication is already on." : PASSWORD_WRONG;
      return answer({ ok: false, errors: { twoFactorPassword: message } }, 400);
    }
    const uri = typeof result.body?.totpURI === "string" ? result.body.totpURI : "";
    const codes = Array.isArray(result.body?.backupCodes) ? result.body.backupCodes.filter((c) => typeof c === "string") : [];
    return answer({ ok: true, errors: {}, setup: await setupOf(uri, codes) }, 200, cookieHeaders(result.setCookies));
  }

  if (intent === "two-factor-verify") {
    const uri = echoedUri.safeParse(form.get("totpURI"));
    const codes = echoedCodes.safeParse(form.get("backupCodes") ?? "");
    const setup = uri.success ? await setupOf(uri.data, codes.success ? codes.data : []) : undefined;
    const parsed = code.safeParse(form.get("code"));
    if (!parsed.success) return answer({ ok: false, errors: { twoFactorCode: parsed.error.issues[0]!.message }, setup }, 400);
    const result = await callAuth(request, "/two-factor/verify-totp", { code: parsed.data });
    if (result.status === 200) {
      // Better Auth replaced the session (it now carries the second factor): its new cookie goes along.
      throw redirect("/dashboard/settings?two-factor=enabled#two-factor", { headers: cookieHeaders(result.setCookies) });
    }
    if (result.status === 429) return answer({ ok: false, errors: { twoFactorCode: tooManyMessage(result) }, setup }, 429);
    const message =
      errorCode(result) === "TOTP_NOT_ENABLED"
        ? "Start again: enter your password to get a new QR code."
        : "That code is not valid. Check the time on your phone and try the newest code.";
    return answer({ ok: false, errors: { twoFactorCode: message }, setup }, 400);
  }

  const parsed = password.safeParse(form.get("password"));
  if (!parsed.success) return answer({ ok: false, errors: { twoFactorDisable: parsed.error.issues[0]!.message } }, 400);
  const result = await callAuth(request, "/two-factor/disable", { password: parsed.data });
  if (result.status === 200) {
    throw redirect("/dashboard/settings?two-factor=disabled#two-factor", { headers: cookieHeaders(result.setCookies) });
  }
  if (result.status === 429) return answer({ ok: false, errors: { twoFactorDisable: tooManyMessage(result) } }, 429);
  // Better Auth asks for a recent sign-in before turning a second factor off.
  const message =
    errorCode(result) === "SESSION_NOT_FRESH"
      ? "For your safety, sign out and sign in again (with your code) before turning it off."
      : PASSWORD_WRONG;
  return answer({ ok: false, errors: { twoFactorDisable: message } }, 400);
}
