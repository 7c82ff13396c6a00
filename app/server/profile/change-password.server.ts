import { callAuth, tooManyMessage } from "../auth/auth-actions.server";
import { PASSWORD_CHANGE_FAILED_MESSAGE, passwordChangeErrors } from "./profile.server";

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  revokeOtherSessions: boolean;
}

export type PasswordChangeResult =
  { ok: true; setCookies: string[] } | { ok: false; status: number; errors: Record<string, string> };

/**
 * The profile form's password change, sent THROUGH Better Auth's HTTP handler (`callAuth`, as the
 * /auth forms are) rather than `auth().api.changePassword`: an in-process call skipped the
 * per-address limit of /api/auth/change-password, so the form let an attacker with a session try
 * current passwords without end. The per-account throttle (a wrong current password is a failure
 * of that account) holds either way, in the auth hooks.
 */
export async function changePassword(request: Request, change: PasswordChange): Promise<PasswordChangeResult> {
  const result = await callAuth(request, "/change-password", change);
  if (result.status === 200) return { ok: true, setCookies: result.setCookies };
  if (result.status === 429) return { ok: false, status: 429, errors: { form: tooManyMessage(result) } };
  if (result.status >= 500) return { ok: false, status: 502, errors: { form: PASSWORD_CHANGE_FAILED_MESSAGE } };
  // A Google-only account has no password: Better Auth's 400 says CREDENTIAL_ACCOUNT_NOT_FOUND.
  const body = result.body as { code?: string; message?: string } | null;
  return { ok: false, status: 400, errors: passwordChangeErrors(result.status, body) };
}
