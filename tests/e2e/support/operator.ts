import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Browser } from "@playwright/test";
import { TOTP } from "otpauth";
import { siteCookies, siteOrigin } from "./auth";
import { cookieHeader, createVerifiedAccount, freshIp, raw } from "./loopback";

/** The first OPERATOR_EMAILS address: the server makes this account an operator. */
export const OPERATOR = (process.env.OPERATOR_EMAILS ?? "ops@example.com").split(",")[0]!.trim().toLowerCase();
export const OPERATOR_PASSWORD = "correct-horse-battery";

/**
 * /admin takes only sessions opened with a second factor (docs/decisions/0073-two-factor.md), so the
 * operator is enrolled in TOTP once per run, by whichever worker gets there first, and the otpauth URI
 * is shared with the other workers through a file named after the run (every worker is a child of the
 * Playwright runner, whose pid names the run; the server is a fresh one each run).
 */
const SHARED = path.join(tmpdir(), `e2e-operator-totp-${process.env.E2E_PORT ?? "3107"}-${process.ppid}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const PERIOD_MS = 30_000;

/**
 * A code of `totpURI`'s authenticator that no worker of this run has used: the server accepts each
 * code once and the next step's code already (app/server/auth/totp-replay.server.ts). A worker
 * claims a step by creating its folder (atomic across workers), newer than any claimed so far;
 * when the window's newest step is taken it waits for the next step to begin.
 */
export async function unusedTotpCode(totpURI: string): Promise<string> {
  const prefix = `${SHARED}-step-${createHash("sha256").update(totpURI).digest("hex").slice(0, 12)}`;
  for (let attempt = 0; attempt < 400; attempt++) {
    const now = Math.floor(Date.now() / PERIOD_MS);
    for (const step of [now, now + 1]) {
      if (existsSync(`${prefix}-${step + 1}`)) continue;
      try {
        mkdirSync(`${prefix}-${step}`);
      } catch {
        continue;
      }
      const secret = new URL(totpURI).searchParams.get("secret")!;
      return new TOTP({ secret, digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: step * PERIOD_MS });
    }
    await sleep(250);
  }
  throw new Error("no unused TOTP step came up");
}

function shared(suffix: ".uri" | ".cookie"): string | null {
  try {
    return readFileSync(`${SHARED}${suffix}`, "utf8");
  } catch {
    return null;
  }
}

/** Writes a shared file whole: a worker reading it meanwhile sees the old text or the new. */
function share(suffix: ".uri" | ".cookie", text: string) {
  const tmp = `${SHARED}${suffix}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, `${SHARED}${suffix}`);
}

const post = (pathname: string, body: object, cookie = "", ip = freshIp()) =>
  raw({ method: "POST", path: pathname, ip, headers: { origin: siteOrigin(), ...(cookie ? { cookie } : {}) }, body });

/** Creates (or signs in to) the operator's account and turns on TOTP; returns the URI and a session cookie. */
async function enrol(): Promise<{ uri: string; cookie: string }> {
  const signIn = await post("/api/auth/sign-in/email", { email: OPERATOR, password: OPERATOR_PASSWORD });
  expect(signIn.json<{ twoFactorRedirect?: boolean } | null>()?.twoFactorRedirect, "enrolled by no one else").toBeFalsy();
  const cookie =
    signIn.status === 200
      ? cookieHeader(signIn.setCookies)
      : (await createVerifiedAccount(OPERATOR, OPERATOR_PASSWORD, siteOrigin())).cookie;
  const enabled = await post("/api/auth/two-factor/enable", { password: OPERATOR_PASSWORD }, cookie);
  expect(enabled.status, enabled.text).toBe(200);
  const uri = enabled.json<{ totpURI: string }>().totpURI;
  const verified = await post("/api/auth/two-factor/verify-totp", { code: await unusedTotpCode(uri) }, cookie);
  expect(verified.status, verified.text).toBe(200);
  return { uri, cookie: cookieHeader(verified.setCookies, cookie) };
}

/** The operator's otpauth URI, enrolling the account when no worker has yet. */
export async function operatorTotpUri(): Promise<string> {
  for (let attempt = 0; attempt < 480; attempt++) {
    const uri = shared(".uri");
    if (uri) return uri;
    let mine = false;
    try {
      mkdirSync(`${SHARED}.lock`);
      mine = true;
    } catch {
      // Another worker is enrolling: its URI appears in the file.
    }
    if (mine) {
      const { uri: made, cookie } = await enrol();
      share(".cookie", cookie);
      share(".uri", made);
      return made;
    }
    await sleep(250);
  }
  throw new Error("the operator was not enrolled in two-factor authentication");
}

const live = async (cookie: string) =>
  Boolean((await raw({ path: "/api/auth/get-session", headers: { cookie } })).json<unknown>());

/**
 * A session cookie of the operator, signed in with password and code. A code works once and the
 * account takes at most one sign-in per 30-second step (the step after the current one already), so
 * every worker of the run uses one session, shared like the URI: the enrolment's, or a newer one a
 * worker signed in with when that one had ended. A code another worker's sign-in overtook (a newer
 * step reached the server first) is refused, and the sign-in is tried again with a newer one.
 */
export async function operatorCookie(): Promise<string> {
  const uri = await operatorTotpUri();
  const current = shared(".cookie");
  if (current && (await live(current))) return current;
  for (let attempt = 1; ; attempt++) {
    const ip = freshIp();
    const signIn = await post("/api/auth/sign-in/email", { email: OPERATOR, password: OPERATOR_PASSWORD }, "", ip);
    expect(signIn.json<{ twoFactorRedirect?: boolean }>().twoFactorRedirect, signIn.text).toBe(true);
    const challenge = cookieHeader(signIn.setCookies);
    const verified = await post("/api/auth/two-factor/verify-totp", { code: await unusedTotpCode(uri) }, challenge, ip);
    if (verified.status === 401 && attempt < 4) continue;
    expect(verified.status, verified.text).toBe(200);
    const cookie = cookieHeader(verified.setCookies, challenge);
    share(".cookie", cookie);
    return cookie;
  }
}

/** The OPERATOR_EMAILS operator's browser, signed in with password and TOTP code. */
export async function operatorContext(browser: Browser) {
  const cookie = await operatorCookie();
  const context = await browser.newContext();
  await context.addCookies(siteCookies(cookie));
  return context;
}
