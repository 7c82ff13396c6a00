import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth, type Auth } from "~/server/auth/auth.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { authPost, cookieOf, enrolTwoFactor, unusedTotpCode } from "./support/two-factor";

// Google sign-in configured (env() is read when the auth instance is made, after this).
process.env.GOOGLE_CLIENT_ID = "fuzz-client.apps.googleusercontent.com";
process.env.GOOGLE_CLIENT_SECRET = "google-test-secret";
process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
/** A JWT part: base64url JSON. */
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
const sessionCookie = (res: Response) => res.headers.getSetCookie().some((c) => /session_token=[^;]/.test(c));
let clients = 0;
/** Each request from another address: Better Auth limits sign-in starts to a few per address. */
const clientIp = () => `10.8.${Math.floor(++clients / 250)}.${clients % 250}`;

/**
 * Google sign-in must not let anyone take over an account. The sign-in sends the browser to Google with a state and a PKCE challenge
 * (S256); the callback refuses a forged state, and the real state arriving without the browser's
 * state cookie, before any code is exchanged. A Google sign-in for the email of a local account joins
 * it only when Google vouches for the email and the local account's email is verified. Google's token
 * endpoint is stood in for by a stub of `fetch` that answers with an ID token for `googleProfile`
 * (Better Auth reads the token it got from the endpoint without checking its signature).
 */
describe(`Google sign-in: state and PKCE (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const calls: string[] = [];
  let googleProfile: { sub: string; email: string; email_verified: boolean } | null = null;

  beforeAll(async () => {
    database = await freshDatabase();
    auth = createAuth(database.db, "x".repeat(40));
    // Any request towards Google would be a code exchange: recorded, and refused.
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (/google/.test(new URL(url).hostname)) {
        calls.push(url);
        if (!googleProfile || !url.startsWith("https://oauth2.googleapis.com/token")) return new Response("{}", { status: 500 });
        const now = Math.floor(Date.now() / 1000);
        const idToken = [
          part({ alg: "RS256", typ: "JWT", kid: "test" }),
          part({
            iss: "https://accounts.google.com",
            aud: process.env.GOOGLE_CLIENT_ID,
            iat: now,
            exp: now + 3600,
            name: "G User",
            ...googleProfile,
          }),
          "c2lnbmF0dXJl",
        ].join(".");
        return Response.json({
          access_token: "ya29.test",
          id_token: idToken,
          expires_in: 3600,
          token_type: "Bearer",
          scope: "openid email profile",
        });
      }
      return realFetch(input, init);
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await database?.cleanup();
  });

  const startSignIn = async () => {
    const res = await auth.handler(
      new Request(`${SITE}/api/auth/sign-in/social`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: SITE, "x-client-ip": clientIp() },
        body: JSON.stringify({ provider: "google", callbackURL: "/dashboard" }),
      }),
    );
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
    return { google: new URL(url), cookie: cookies.join("; ") };
  };
  const callback = (query: string, cookie = "") =>
    auth.handler(
      new Request(`${SITE}/api/auth/callback/google?${query}`, {
        headers: { "x-client-ip": clientIp(), ...(cookie ? { cookie } : {}) },
      }),
    );

  it("sends the browser to Google with a state, an S256 PKCE challenge and this site's callback", async () => {
    const { google, cookie } = await startSignIn();
    expect(google.origin).toBe("https://accounts.google.com");
    expect(google.searchParams.get("client_id")).toBe(process.env.GOOGLE_CLIENT_ID);
    expect(google.searchParams.get("redirect_uri")).toBe(`${SITE}/api/auth/callback/google`);
    expect(google.searchParams.get("state")?.length).toBeGreaterThanOrEqual(16);
    expect(google.searchParams.get("code_challenge_method")).toBe("S256");
    expect(google.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    // The state is bound to this browser by a cookie.
    expect(cookie).toMatch(/state/);
    // Two sign-ins, two states and two challenges.
    const again = (await startSignIn()).google;
    expect(again.searchParams.get("state")).not.toBe(google.searchParams.get("state"));
    expect(again.searchParams.get("code_challenge")).not.toBe(google.searchParams.get("code_challenge"));
  });

  it("refuses a forged state, and the real state without the browser's cookie, before exchanging the code", async () => {
    const { google, cookie } = await startSignIn();
    const state = google.searchParams.get("state") ?? "";
    for (const [query, withCookie] of [
      ["state=forged-state&code=fuzz-code", cookie],
      [`state=${encodeURIComponent(state)}&code=fuzz-code`, ""],
      ["code=fuzz-code", cookie],
    ] as const) {
      const res = await callback(query, withCookie);
      // Back to the sign-in page, which says Google sign-in did not complete.
      const location = res.headers.get("location") ?? "";
      const answer = {
        status: res.status,
        toSignIn: location.startsWith(`${SITE}/auth?tab=signin&error=`),
        session: sessionCookie(res),
      };
      expect({ query, ...answer }).toEqual({ query, status: 302, toSignIn: true, session: false });
    }
    expect(calls).toEqual([]);
    // The control: the same state with its cookie does go on to exchange the code with Google.
    const res = await callback(`state=${encodeURIComponent(state)}&code=fuzz-code`, cookie);
    expect(res.status).toBe(302);
    expect(calls.map((url) => new URL(url).origin)).toContain("https://oauth2.googleapis.com");
    expect(sessionCookie(res)).toBe(false);
  });

  /** A local account with a password, its email verified or not; answers its id. */
  const localAccount = async (email: string, emailVerified: boolean) => {
    const id = `local-${email}`;
    await database.db.insert(schema.user).values({ id, name: "Local", email, emailVerified });
    await database.db
      .insert(schema.account)
      .values({ id: `acc-${email}`, accountId: id, providerId: "credential", userId: id, password: "not-used" });
    return id;
  };
  const googleAccounts = async (userId: string) =>
    database.db
      .select({ id: schema.account.id })
      .from(schema.account)
      .where(and(eq(schema.account.userId, userId), eq(schema.account.providerId, "google")));
  const signInWithGoogle = async (profile: NonNullable<typeof googleProfile>) => {
    googleProfile = profile;
    const { google, cookie } = await startSignIn();
    const res = await callback(`state=${encodeURIComponent(google.searchParams.get("state") ?? "")}&code=fuzz-code`, cookie);
    googleProfile = null;
    return res;
  };

  it("does not join an unverified local account, nor a verified one when Google does not vouch for the email", async () => {
    const unverified = await localAccount("unverified@example.com", false);
    const refused = await signInWithGoogle({ sub: "g-1", email: "unverified@example.com", email_verified: true });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toMatch(/error=account_not_linked/);
    expect(sessionCookie(refused)).toBe(false);
    expect(await googleAccounts(unverified)).toEqual([]);

    const verified = await localAccount("not-vouched@example.com", true);
    const notVouched = await signInWithGoogle({ sub: "g-2", email: "not-vouched@example.com", email_verified: false });
    expect(notVouched.headers.get("location")).toMatch(/error=account_not_linked/);
    expect(sessionCookie(notVouched)).toBe(false);
    expect(await googleAccounts(verified)).toEqual([]);
  });

  it("joins a verified local account when Google vouches for the email (the control)", async () => {
    const verified = await localAccount("verified@example.com", true);
    const joined = await signInWithGoogle({ sub: "g-3", email: "verified@example.com", email_verified: true });
    expect(joined.status).toBe(302);
    expect(joined.headers.get("location")).not.toMatch(/error=/);
    expect(sessionCookie(joined)).toBe(true);
    expect(await googleAccounts(verified)).toHaveLength(1);
  });
  it("welcomes a customer whose account Google made, once however often they sign in", async () => {
    const email = "new-through-google@example.com";
    for (const sub of ["g-4", "g-4"]) {
      const res = await signInWithGoogle({ sub, email, email_verified: true });
      expect(res.headers.get("location")).not.toMatch(/error=/);
      expect(sessionCookie(res)).toBe(true);
    }
    const welcomes = await database.db
      .select({ to: schema.mailOutbox.to })
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, "welcome"), eq(schema.mailOutbox.to, email)));
    expect(welcomes).toEqual([{ to: email }]);
  });

  it("asks an account with two-factor authentication for its code before opening a session", async () => {
    const customer = await signedInCustomerMaker(
      () => auth,
      () => database.db,
      "google-two-factor",
    )();
    const { totpURI } = await enrolTwoFactor(auth, customer.cookie, "correct-horse-battery");
    const sessionsOf = async () =>
      (await database.db.select().from(schema.session).where(eq(schema.session.userId, customer.id))).map((s) => s.id);
    const before = await sessionsOf();

    const res = await signInWithGoogle({ sub: "g-5", email: customer.email, email_verified: true });
    // The code step of the sign-in page, keeping where the sign-in was going; no session, only the challenge.
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${SITE}/auth?tab=signin&step=code&next=%2Fdashboard`);
    const browser = cookieOf(res);
    expect(browser).not.toMatch(/session_token=/);
    expect(browser).toMatch(/two_factor=/);
    expect(await sessionsOf()).toEqual(before);

    // A wrong code opens nothing; the right one opens a session that carries the second factor.
    const wrong = await authPost(auth, "/two-factor/verify-totp", { code: "000000" }, browser);
    expect(wrong.status).toBe(401);
    expect(cookieOf(wrong, browser)).not.toMatch(/session_token=/);
    const right = await authPost(auth, "/two-factor/verify-totp", { code: await unusedTotpCode(totpURI) }, browser);
    expect(right.status).toBe(200);
    expect(cookieOf(right, browser)).toMatch(/session_token=/);
    const opened = (await database.db.select().from(schema.session).where(eq(schema.session.userId, customer.id))).filter(
      (s) => !before.includes(s.id),
    );
    expect(opened.map((s) => s.twoFactorVerified)).toEqual([true]);
  });
});
