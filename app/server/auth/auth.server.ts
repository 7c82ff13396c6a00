import { createHash, randomBytes } from "node:crypto";
import { betterAuth, type GenericEndpointContext } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { symmetricDecrypt } from "better-auth/crypto";
import { TWO_FACTOR_ERROR_CODES, twoFactor } from "better-auth/plugins/two-factor";
import { APIError, createAuthMiddleware, getIP, getSessionFromCtx } from "better-auth/api";
import { eq, sql } from "drizzle-orm";
import { completeAffiliateFromVerification } from "../affiliates/affiliates.server";
import { attributeSignup } from "../affiliates/referral.server";
import { db as currentDb, type Db } from "../db/client.server";
import * as schema from "../db/schema";
import { env } from "../env.server";
import { errorMessage, log } from "../log.server";
import { sendEmail } from "../mail/queue-email.server";
import { hashPassword, verifyPassword } from "./password.server";
import { holdsNul, userFieldsProblem } from "./auth-input.server";
import { logFromAuth } from "./auth-log.server";
import { safeNext } from "./safe-next.server";
import { timeZoneFromCookie } from "~/lib/time-zone";
import { rememberTimeZone } from "../profile/settings.server";
import { INVALID_CHARACTERS } from "~/lib/text";
import { CLIENT_IP_HEADER } from "../http/client-ip.server";
import {
  ACCOUNT_FAILURE_LIMIT,
  pruneAccountAttempts,
  recordAccountAttempt,
  releaseAccountAttempt,
  reserveAccountAttempt,
} from "./account-attempts.server";
import { addressLimitKey, takeAddressAllowance, type AddressRule } from "./address-limit.server";
import { claimTotpStep, encryptedTotpSecret, matchingStep, totpKey } from "./totp-replay.server";
import { challengeOAuthSignIn, isOAuthCallback, TWO_FACTOR_CHALLENGE_COOKIE } from "./oauth-second-factor.server";

export { ACCOUNT_FAILURE_LIMIT };

/** The per-account throttle's answer, from whichever way the password check was asked for. */
export const ACCOUNT_THROTTLED_MESSAGE = "Too many attempts for this account. Try again later or reset your password.";
/** Better Auth's own per-address answer, given to in-process calls over the limit too. */
const ADDRESS_THROTTLED_MESSAGE = "Too many requests. Please try again later.";

/**
 * Per client address, in Better Auth's database limiter (shared by every instance). The paths that
 * check a secret are also limited when called in-process (`auth.api.*`), which Better Auth's
 * limiter does not see: see the before hook.
 */
const ADDRESS_RULES = {
  "/sign-in/email": { window: 60, max: 10 },
  "/sign-up/email": { window: 60, max: 5 },
  "/request-password-reset": { window: 60, max: 5 },
  "/send-verification-email": { window: 60, max: 5 },
  "/reset-password": { window: 60, max: 10 },
  "/change-password": { window: 60, max: 10 },
  // Reachable over HTTP with a session although Better Auth leaves it out of its API description.
  "/verify-password": { window: 60, max: 10 },
  // The two-factor plugin's own rule is 3 per 10 s for all of /two-factor/*; codes are also limited
  // to 5 per sign-in challenge and 10 failures in a row per account (docs/decisions/0073-two-factor.md).
  "/two-factor/enable": { window: 60, max: 10 },
  "/two-factor/disable": { window: 60, max: 10 },
  "/two-factor/verify-totp": { window: 60, max: 10 },
  "/two-factor/verify-backup-code": { window: 60, max: 10 },
} as const satisfies Record<string, AddressRule>;

/** Paths that check a secret: limited per address however they are called. */
const SECRET_CHECKS = new Set<string>([
  "/sign-in/email",
  "/reset-password",
  "/change-password",
  "/verify-password",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
]);

/** Paths that finish a sign-in (or an enrolment) with a second factor: the session they open is marked. */
const SECOND_FACTOR_PATHS = new Set<string>(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/**
 * Paths that check the password of the signed-in account (the body field holding it): each check is
 * reserved against that account's failure limit, like a sign-in's.
 */
const SESSION_PASSWORD_CHECKS: Record<string, string> = {
  "/change-password": "currentPassword",
  "/verify-password": "password",
  "/delete-user": "password",
  "/two-factor/enable": "password",
  "/two-factor/disable": "password",
};

/**
 * The reservation a call's password check holds, from the before hook to the after hook. Keyed by
 * the call's own context object, which Better Auth creates for each call and hands to both hooks.
 */
const reservations = new WeakMap<object, number>();

/**
 * A device cookie (OWASP's "slow down online guessing attacks with device cookies"): set at every
 * sign-in, signed, naming the account's email hash and its device-cookie epoch. A browser that signed
 * in to an account before is let past that account's failure throttle, so an attacker who floods an
 * account with wrong passwords from elsewhere cannot lock its owner out on the owner's own devices.
 * A password reset or change bumps the epoch, so a cookie won by someone who once knew the old
 * password stops opening the throttle for guesses at the new one.
 */
export const DEVICE_COOKIE = "trusted_device";
const DEVICE_COOKIE_MAX_AGE = 180 * 24 * 60 * 60;

export const emailHash = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

/** A session lasts a week; a request more than a day after its last extension extends it (and sets the cookie anew). */
export const SESSION_EXPIRES_IN_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;

/** Cookies are marked Secure (and Better Auth's names get `__Secure-`) when the site is served over https. */
function usesSecureCookies(): boolean {
  return env().PUBLIC_SITE_URL.startsWith("https://");
}

/** The name of Better Auth's session cookie under this configuration. */
export function sessionCookieName(): string {
  return `${usesSecureCookies() ? "__Secure-" : ""}better-auth.session_token`;
}

/** The secret from AUTH_SECRET, or one generated once and shared by every instance through the database. */
export async function loadAuthSecret(db: Db): Promise<string> {
  const configured = env().AUTH_SECRET;
  if (configured) return configured;
  await db
    .insert(schema.appSettings)
    .values({ key: "auth_secret", value: randomBytes(48).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(schema.appSettings).where(eq(schema.appSettings.key, "auth_secret"));
  if (!row) throw new Error("could not load the auth secret");
  return row.value;
}

async function deviceEpoch(db: Db, hash: string): Promise<number> {
  const [row] = await db
    .select({ epoch: schema.deviceCookieEpochs.epoch })
    .from(schema.deviceCookieEpochs)
    .where(eq(schema.deviceCookieEpochs.emailHash, hash));
  return row?.epoch ?? 0;
}

async function revokeDeviceCookies(db: Db, hash: string) {
  await db
    .insert(schema.deviceCookieEpochs)
    .values({ emailHash: hash, epoch: 1 })
    .onConflictDoUpdate({
      target: schema.deviceCookieEpochs.emailHash,
      set: { epoch: sql`${schema.deviceCookieEpochs.epoch} + 1` },
    });
}

/**
 * The email hash of the account whose password this call checks, or null when it checks none (or
 * names no account: the endpoint then answers 400 or 401 without a check).
 */
async function passwordCheckedFor(ctx: GenericEndpointContext): Promise<string | null> {
  const body = ctx.body as Record<string, unknown> | undefined;
  if (ctx.path === "/sign-in/email") {
    return typeof body?.email === "string" && body.email ? emailHash(body.email) : null;
  }
  const field = ctx.path ? SESSION_PASSWORD_CHECKS[ctx.path] : undefined;
  if (!field || typeof body?.[field] !== "string") return null;
  const session = await getSessionFromCtx(ctx);
  return session ? emailHash(session.user.email) : null;
}

/**
 * Refuses a TOTP code whose time step was already accepted for the account, with the plugin's own
 * "Invalid code" answer, and otherwise claims the step. The account is the session's (enrolment's
 * confirmation, a step-up) or the sign-in challenge's. A code that matches no step is left to the
 * plugin, which counts the failure; a claim made for a call the plugin then refuses (an expired
 * challenge) only means the next code must be a newer one.
 */
async function refuseReplayedTotp(ctx: GenericEndpointContext, db: Db): Promise<void> {
  const code = (ctx.body as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || !/^\d{6}$/.test(code)) return;
  let userId = (await getSessionFromCtx(ctx))?.user.id;
  if (!userId) {
    const challenge = await ctx.getSignedCookie(
      ctx.context.createAuthCookie(TWO_FACTOR_CHALLENGE_COOKIE).name,
      ctx.context.secret,
    );
    if (!challenge) return;
    userId = (await ctx.context.internalAdapter.findVerificationValue(challenge))?.value;
  }
  if (!userId) return;
  const encrypted = await encryptedTotpSecret(db, userId);
  if (!encrypted) return;
  let decrypted: string;
  try {
    decrypted = await symmetricDecrypt({ key: ctx.context.secretConfig, data: encrypted });
  } catch {
    // A secret this key cannot open: the plugin's own check fails on it and answers for it.
    return;
  }
  const step = matchingStep(totpKey(decrypted), code, Date.now());
  if (step === null) return;
  if (!(await claimTotpStep(db, userId, step))) {
    log.warn("totp code reused", { userId });
    throw APIError.from("UNAUTHORIZED", TWO_FACTOR_ERROR_CODES.INVALID_CODE);
  }
}

/**
 * The sign-in page for the owner of an address someone tried to sign up with: it keeps the page the
 * sign-up was coming back to (its callbackURL), so signing in instead continues the same purchase.
 */
async function signInLinkBack(request: Request | undefined): Promise<string> {
  let callbackURL: unknown;
  try {
    callbackURL = ((await request?.json()) as { callbackURL?: unknown } | undefined)?.callbackURL;
  } catch {
    callbackURL = undefined;
  }
  const back = typeof callbackURL === "string" ? safeNext(callbackURL, "") : "";
  return back && !back.startsWith("/dashboard?toast=") ? `/auth?next=${encodeURIComponent(back)}` : "/auth";
}

export function createAuth(db: Db, secret: string) {
  const e = env();
  const secure = usesSecureCookies();
  /** The welcome email, once per account however often it is asked for. Optional (notification settings). */
  const sendWelcome = async (user: { id: string; email: string }) => {
    const firstName = (user as { firstName?: string | null }).firstName ?? null;
    await sendEmail(db, { kind: "welcome", to: user.email, props: { firstName }, subjectId: user.id, userId: user.id }).catch(
      (error: unknown) => log.error("welcome email not queued", { error: errorMessage(error) }),
    );
  };
  return betterAuth({
    appName: "AI Automation Apps",
    logger: { log: logFromAuth },
    // A Google sign-in that fails before its own error page is known (a lost or forged state: the
    // sign-in took too long, or was finished in another browser) lands on the sign-in page, which
    // says Google sign-in did not complete; Better Auth's default sent it to the home page.
    onAPIError: { errorURL: `${e.PUBLIC_SITE_URL}/auth?tab=signin` },
    baseURL: e.PUBLIC_SITE_URL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: e.SITE_ORIGINS,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
        twoFactor: schema.twoFactor,
      },
    }),
    user: {
      additionalFields: {
        firstName: { type: "string", required: false, input: true },
        lastName: { type: "string", required: false, input: true },
        companyName: { type: "string", required: false, input: true },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // Sign-up never signs in and never says whether the email was taken (no enumeration):
      // the verification link signs the new customer in (docs/decisions/0006-accounts.md).
      requireEmailVerification: true,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      // The owner proved the mailbox: failures counted against the old password no longer hold the
      // account, and device cookies won with the old password no longer pass the throttle (ADR 0006).
      onPasswordReset: async ({ user }) => {
        const hash = emailHash(user.email);
        await db.delete(schema.authFailures).where(eq(schema.authFailures.emailHash, hash));
        await revokeDeviceCookies(db, hash);
      },
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: async ({ user, url }) => {
        // Every request is a new link: no once-per-event key.
        await sendEmail(db, { kind: "passwordReset", to: user.email, props: { url }, subjectId: null });
      },
      onExistingUserSignUp: async ({ user }, request) => {
        const signIn = `${e.PUBLIC_SITE_URL}${await signInLinkBack(request)}`;
        await sendEmail(db, { kind: "existingAccount", to: user.email, props: { signInUrl: signIn }, subjectId: null });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        await sendEmail(db, { kind: "verification", to: user.email, props: { url }, subjectId: null });
      },
      // Affiliate sign-up: the link's callback names the chosen username; the affiliates row is
      // created now, once the address is proven (docs/decisions/0011-affiliates.md).
      afterEmailVerification: async (user, request) => {
        await completeAffiliateFromVerification(db, user, request);
        await sendWelcome(user);
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Referral attribution for every sign-up path (email form, /api/auth, Google callback):
          // the hook runs after the user row is committed, inside the endpoint's context, whose
          // headers are the browser's (the /auth and /affiliate-signup actions forward its cookie).
          after: async (created, ctx) => {
            const cookie = ctx?.headers?.get("cookie") ?? ctx?.request?.headers.get("cookie") ?? null;
            await attributeSignup(db, created.id, cookie, secret);
            // An account made through Google is verified from the start, so no verification link
            // is followed and the hook above that welcomes a new customer never runs.
            if (created.emailVerified) await sendWelcome(created);
            // The browser's time zone (the page's cookie) is the account's from the start
            // (docs/decisions/0061-customer-time-zone.md). A failure costs only that: the first
            // dashboard view captures it again.
            const zone = timeZoneFromCookie(cookie);
            if (zone) {
              await rememberTimeZone(db, created.id, zone).catch((error: unknown) =>
                log.warn("time zone not stored at sign-up", { error: errorMessage(error) }),
              );
            }
          },
        },
      },
    },
    socialProviders: e.GOOGLE_ENABLED ? { google: { clientId: e.GOOGLE_CLIENT_ID!, clientSecret: e.GOOGLE_CLIENT_SECRET! } } : {},
    account: {
      // Google may link to an existing account only when Google vouches for the email AND the local
      // account's email is verified; an unverified local account is never silently taken over.
      // (requireLocalEmailVerified is Better Auth 1.7's default, stated so an upgrade cannot change
      // it. Proof: tests/integration/google-oauth.test.ts.)
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true },
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      additionalFields: { twoFactorVerified: { type: "boolean", required: false, defaultValue: false, input: false } },
    },
    // TOTP with recovery codes; no trusted devices: every password sign-in of an enrolled account
    // asks for a code (docs/decisions/0073-two-factor.md).
    plugins: [
      twoFactor({
        issuer: "AI Automation Apps",
        backupCodeOptions: { amount: 10, length: 10 },
      }),
    ],
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: ADDRESS_RULES,
    },
    advanced: {
      // Better Auth skips its Origin and callback-URL checks when NODE_ENV is "test" or TEST is set
      // in the environment: stated here, so neither a stray variable on a server nor the test runner
      // turns them off (the integration tests then see what production does).
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (holdsNul(ctx.body) || holdsNul(ctx.query) || holdsNul(ctx.params)) {
          throw new APIError("BAD_REQUEST", { message: INVALID_CHARACTERS });
        }
        // Names go into PostgreSQL text: wrong types, NUL, other control characters, unpaired
        // surrogates and oversize values are refused for every path that writes them (the forms
        // check them too).
        if (ctx.path === "/sign-up/email" || ctx.path === "/update-user") {
          const problem = userFieldsProblem(ctx.body);
          if (problem) throw new APIError("BAD_REQUEST", { message: problem });
        }
        // Better Auth limits per address only what comes through its HTTP handler (which sets
        // ctx.request); a server-side call (`auth.api.*`) that checks a secret takes from the same
        // allowance here, so no way in is unlimited. Every request the server answers carries the
        // client's address (server/app.ts sets it from the socket), and so does a call made for
        // it; a call without one is the server's own (a script, a test), with no client to count.
        const rule = ctx.path && SECRET_CHECKS.has(ctx.path) ? ADDRESS_RULES[ctx.path as keyof typeof ADDRESS_RULES] : undefined;
        if (rule && !ctx.request && ctx.headers?.has(CLIENT_IP_HEADER) && ctx.context.rateLimit.enabled) {
          const ip = getIP(ctx.headers, ctx.context.options) ?? "no-trusted-ip";
          if (!(await takeAddressAllowance(db, addressLimitKey(ip, ctx.path), rule))) {
            throw new APIError("TOO_MANY_REQUESTS", { message: ADDRESS_THROTTLED_MESSAGE });
          }
        }
        // A TOTP code works once: its step is claimed before Better Auth checks it (totp-replay.server.ts).
        if (ctx.path === "/two-factor/verify-totp") await refuseReplayedTotp(ctx, db);
        // Per account: the check is reserved before the password is looked at (one transaction per
        // account at a time), and given back by the after hook when the password was right.
        const hash = await passwordCheckedFor(ctx);
        if (!hash) return;
        let reserved = await reserveAccountAttempt(db, hash);
        if (reserved === null) {
          // The epoch is read only here, so checks of accounts under the limit pay nothing for it.
          const device = await ctx.getSignedCookie(DEVICE_COOKIE, ctx.context.secret);
          if (!device || device !== `${hash}.${await deviceEpoch(db, hash)}`) {
            log.warn("account password check throttled", { path: ctx.path, emailHash: hash.slice(0, 12) });
            throw new APIError("TOO_MANY_REQUESTS", { message: ACCOUNT_THROTTLED_MESSAGE });
          }
          reserved = await recordAccountAttempt(db, hash);
        }
        reservations.set(ctx.context, reserved);
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        const failed = returned instanceof APIError || returned instanceof Error;
        const setDeviceCookie = async (email: string) => {
          const hash = emailHash(email);
          await ctx.setSignedCookie(DEVICE_COOKIE, `${hash}.${await deviceEpoch(db, hash)}`, ctx.context.secret, {
            httpOnly: true,
            sameSite: "lax",
            secure,
            path: "/",
            maxAge: DEVICE_COOKIE_MAX_AGE,
          });
        };
        // Better Auth has no password-change callback. Every change revokes, not only one that signs
        // out the other sessions: a session left signed in has no use for the throttle bypass, and a
        // change is often the owner's answer to a password they think leaked. The browser that made
        // the change gets a cookie of the new epoch below.
        const changed =
          ctx.path === "/change-password" && !failed
            ? (returned as { user?: { email?: unknown } } | undefined)?.user?.email
            : undefined;
        if (typeof changed === "string") await revokeDeviceCookies(db, emailHash(changed));
        // Google's callback signs in without the second factor an enrolled account must give.
        if (isOAuthCallback(ctx.path)) await challengeOAuthSignIn(ctx, returned, e.PUBLIC_SITE_URL);
        const signedIn = ctx.context.newSession;
        if (signedIn) await setDeviceCookie(signedIn.user.email);
        // A session opened by a code (the sign-in's second step, or the enrolment's confirmation,
        // which replaces the session) is the only kind /admin accepts. A code checked for a session
        // that already exists opens nothing and marks nothing: that check has no attempt limit of
        // its own in Better Auth.
        if (signedIn && !failed && ctx.path && SECOND_FACTOR_PATHS.has(ctx.path)) {
          await db.update(schema.session).set({ twoFactorVerified: true }).where(eq(schema.session.id, signedIn.session.id));
        } else if (typeof changed === "string") await setDeviceCookie(changed);
        const reserved = reservations.get(ctx.context);
        if (reserved === undefined) return;
        reservations.delete(ctx.context);
        if (failed) await pruneAccountAttempts(db);
        else await releaseAccountAttempt(db, reserved);
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let instance: Auth | undefined;
let instanceSecret: string | undefined;

export async function initAuth(db: Db = currentDb()): Promise<Auth> {
  instanceSecret = await loadAuthSecret(db);
  instance = createAuth(db, instanceSecret);
  return instance;
}

/** The secret Better Auth signs its cookies with; the referral cookie is signed with it too. */
export function authSecret(): string {
  if (instanceSecret === undefined) throw new Error("auth is not initialised (boot() has not run)");
  return instanceSecret;
}

export function auth(): Auth {
  if (!instance) throw new Error("auth is not initialised (boot() has not run)");
  return instance;
}

export function resetAuth() {
  instance = undefined;
}
