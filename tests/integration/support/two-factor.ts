import { TOTP } from "otpauth";
import type { Auth } from "~/server/auth/auth.server";

const SITE = "http://localhost:3000";
let clients = 0;

/** The current code of an otpauth:// URI's secret, computed as an authenticator app would. */
export function totpCode(totpURI: string, at = Date.now()): string {
  const secret = new URL(totpURI).searchParams.get("secret")!;
  return new TOTP({ secret, digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });
}

const PERIOD_MS = 30_000;
const lastStepOf = new Map<string, number>();

/**
 * A code of the account's authenticator that has not been used yet: the server accepts each code
 * once (app/server/auth/totp-replay.server.ts), and accepts the next step's code already, so a
 * second use within 30 seconds takes the next step's; a third waits for a new step to begin.
 */
export async function unusedTotpCode(totpURI: string): Promise<string> {
  const last = lastStepOf.get(totpURI) ?? -1;
  for (;;) {
    const now = Math.floor(Date.now() / PERIOD_MS);
    const step = Math.max(now, last + 1);
    if (step <= now + 1) {
      lastStepOf.set(totpURI, step);
      return totpCode(totpURI, step * PERIOD_MS);
    }
    // The window's newest step is used: the next one begins within 30 seconds.
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * PERIOD_MS - Date.now() + 10));
  }
}

/** The cookies a browser holds after `res`, starting from `previous` (a cleared cookie is dropped). */
export const cookieOf = (res: Response, previous = "") => {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as const),
  );
  for (const set of res.headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0/i.test(set) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
};

/** A POST to Better Auth's handler from a client address of its own (the per-address limits stay apart). */
export function authPost(auth: Auth, path: string, body: Record<string, unknown>, cookie = "") {
  clients += 1;
  return auth.handler(
    new Request(`${SITE}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: SITE,
        "x-client-ip": `10.77.${Math.floor(clients / 250) % 250}.${clients % 250}`,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
}

/**
 * Turns on two-factor authentication for the signed-in account of `cookie` (password, then a first
 * code), as Settings does. Returns the new session cookie (Better Auth replaces the session, and the
 * new one carries the second factor), the otpauth URI and the recovery codes.
 */
export async function enrolTwoFactor(auth: Auth, cookie: string, password: string) {
  const enabled = await authPost(auth, "/two-factor/enable", { password }, cookie);
  if (enabled.status !== 200) throw new Error(`two-factor enable answered ${enabled.status}: ${await enabled.text()}`);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const verified = await authPost(auth, "/two-factor/verify-totp", { code: await unusedTotpCode(totpURI) }, cookie);
  if (verified.status !== 200) throw new Error(`two-factor verify answered ${verified.status}: ${await verified.text()}`);
  return { cookie: cookieOf(verified, cookie), totpURI, backupCodes };
}

/** A password sign-in of an enrolled account, then its second step; returns the session cookie. */
export async function signInWithCode(auth: Auth, email: string, password: string, totpURI: string) {
  const first = await authPost(auth, "/sign-in/email", { email, password });
  const body = (await first.json()) as { twoFactorRedirect?: boolean };
  if (first.status !== 200 || !body.twoFactorRedirect) throw new Error(`sign-in did not ask for a code (${first.status})`);
  const challenge = cookieOf(first);
  const second = await authPost(auth, "/two-factor/verify-totp", { code: await unusedTotpCode(totpURI) }, challenge);
  if (second.status !== 200) throw new Error(`two-factor verify answered ${second.status}: ${await second.text()}`);
  return cookieOf(second, challenge);
}
