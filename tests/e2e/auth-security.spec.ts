import { expect, test } from "@playwright/test";
import { siteOrigin, uniqueEmail } from "./support/auth";
import { cookieHeader, createVerifiedAccount, freshIp, mailLink, raw } from "./support/loopback";

/**
 * HTTP-level checks of authentication: no account enumeration, password rules, per-IP limits, the
 * session cookie, the Origin check, off-site callbacks and schema-checked input. Each test
 * talks from a loopback address of its own (support/loopback.ts), so per-IP limits of one test
 * never leak into another.
 */
const PASSWORD = "correct-horse-battery";

const post = (path: string, body: unknown, opts: { ip?: string; cookie?: string; headers?: Record<string, string> } = {}) =>
  raw({
    method: "POST",
    path,
    ip: opts.ip,
    headers: { origin: siteOrigin(), ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers },
    body,
  });

const signIn = (email: string, password: string, ip = freshIp()) => post("/api/auth/sign-in/email", { email, password }, { ip });

const sessionCookie = (setCookies: string[]) => setCookies.find((c) => /session_token=/.test(c) && !/max-age=0/i.test(c));

const signUpBody = (email: string) => ({ email, password: "another-password-1", name: "Someone" });

const sendToAuth = (body: string, headers: Record<string, string>) =>
  raw({ method: "POST", path: "/auth", headers: { origin: siteOrigin(), ...headers }, body });

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The change-password form of a rendered profile page. */
const passwordForm = (html: string) =>
  html
    .split("<form")
    .find((part) => part.includes('name="currentPassword"'))
    ?.split("</form>")[0] ?? "";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

test.describe("no account enumeration", () => {
  test("sign-in: an unknown email and a wrong password get the same status and body", async () => {
    const email = uniqueEmail("enum");
    await createVerifiedAccount(email, PASSWORD, siteOrigin());
    const ip = freshIp();
    const wrong = await signIn(email, "not-the-password", ip);
    const unknown = await signIn(uniqueEmail("nobody"), "not-the-password", ip);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
    // The /auth form says the same, too.
    const viaForm = async (e: string) =>
      raw({
        method: "POST",
        path: "/auth?tab=signin",
        ip,
        headers: { origin: siteOrigin(), ...FORM },
        body: form({ intent: "signin", email: e, password: "not-the-password" }),
      });
    const [a, b] = [await viaForm(email), await viaForm(uniqueEmail("nobody"))];
    expect(a.status).toBe(401);
    expect(b.status).toBe(a.status);
    expect(a.text).toContain("Invalid email or password");
    expect(b.text).toContain("Invalid email or password");
  });

  test("password reset request: the same answer whether or not the account exists", async () => {
    const email = uniqueEmail("reset-enum");
    await createVerifiedAccount(email, PASSWORD, siteOrigin());
    const ip = freshIp();
    const known = await post("/api/auth/request-password-reset", { email, redirectTo: "/auth?tab=reset" }, { ip });
    const unknown = await post(
      "/api/auth/request-password-reset",
      { email: uniqueEmail("nobody"), redirectTo: "/auth?tab=reset" },
      { ip },
    );
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    await expect.poll(() => mailLink(email, /reset/i)).toContain("/api/auth/reset-password/");
  });

  test("sign-up with a taken email answers like a new one (status and body shape)", async () => {
    const email = uniqueEmail("taken");
    await createVerifiedAccount(email, PASSWORD, siteOrigin());
    const ip = freshIp();
    const fresh = await post("/api/auth/sign-up/email", signUpBody(uniqueEmail("new")), { ip });
    const taken = await post("/api/auth/sign-up/email", signUpBody(email), { ip });
    expect(fresh.status).toBe(200);
    expect(taken.status).toBe(fresh.status);
    // Same keys, same non-identifying values; ids, timestamps and the echoed email may differ.
    const shape = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(shape);
      if (value && typeof value === "object") {
        return Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, ["id", "email", "createdAt", "updatedAt"].includes(k) ? typeof v : shape(v)]),
        );
      }
      return value;
    };
    expect(shape(taken.json())).toEqual(shape(fresh.json()));
    expect(fresh.setCookies.filter((c) => /session_token=/.test(c))).toEqual([]);
    expect(taken.setCookies.filter((c) => /session_token=/.test(c))).toEqual([]);
    // The /auth form shows the identical success panel for both.
    for (const e of [uniqueEmail("new"), email]) {
      const res = await raw({
        method: "POST",
        path: "/auth?tab=signup",
        ip: freshIp(),
        headers: { origin: siteOrigin(), ...FORM },
        body: form({ intent: "signup", email: e, password: "another-password-1", firstName: "", lastName: "", companyName: "" }),
      });
      expect(res.status).toBe(200);
      expect(res.text).toContain("Account created successfully! Please check your email to verify your account.");
    }
  });
});

test("an unverified account with the right password is told to verify, and gets a new link", async () => {
  const email = uniqueEmail("unverified");
  const ip = freshIp();
  expect((await post("/api/auth/sign-up/email", signUpBody(email), { ip })).status).toBe(200);
  const wrong = await raw({
    method: "POST",
    path: "/auth?tab=signin",
    ip,
    headers: { origin: siteOrigin(), ...FORM },
    body: form({ intent: "signin", email, password: "not-the-password" }),
  });
  // A wrong password says nothing about the account's state.
  expect(wrong.status).toBe(401);
  expect(wrong.text).toContain("Invalid email or password");
  const right = await raw({
    method: "POST",
    path: "/auth?tab=signin",
    ip,
    headers: { origin: siteOrigin(), ...FORM },
    body: form({ intent: "signin", email, password: "another-password-1" }),
  });
  expect(right.status).toBe(403);
  expect(right.text).toContain("Please verify your email address. We&#x27;ve sent you a new link.");
  expect(right.setCookies.filter((c) => /session_token=/.test(c) && !/max-age=0/i.test(c))).toEqual([]);
  const mails = await raw({ path: `/dev/mailbox.json?to=${encodeURIComponent(email)}` });
  const verifyMails = mails.json<{ subject: string; text: string }[]>().filter((m) => /verify/i.test(m.subject));
  expect(verifyMails.length).toBe(2);
  // The new link (newest first) opens the dashboard, like the sign-up form's (before: the home page).
  const link = new URL(/https?:\/\/\S+/.exec(verifyMails[0]?.text ?? "")?.[0] ?? "http://missing/");
  expect(link.searchParams.get("callbackURL")).toBe("/dashboard?toast=account-created");
});

test.describe("passwords", () => {
  test("7 characters are refused; 64+ are accepted, usable and not truncated", async () => {
    const short = await post("/api/auth/sign-up/email", { email: uniqueEmail("short"), password: "1234567", name: "S" });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/too short/i);

    const viaForm = await raw({
      method: "POST",
      path: "/auth?tab=signup",
      headers: { origin: siteOrigin(), ...FORM },
      body: form({ intent: "signup", email: uniqueEmail("short"), password: "1234567" }),
    });
    expect(viaForm.status).toBe(400);
    expect(viaForm.text).toContain("Password must be at least 8 characters");

    const long = "Tr0ub4dor&3 correct horse battery staple ".repeat(3).slice(0, 100);
    expect(long.length).toBe(100);
    const email = uniqueEmail("long");
    await createVerifiedAccount(email, long, siteOrigin());
    const ip = freshIp();
    expect((await signIn(email, long, ip)).status).toBe(200);
    // No truncation: the first 72 or 99 characters are not the password.
    expect((await signIn(email, long.slice(0, 72), ip)).status).toBe(401);
    expect((await signIn(email, long.slice(0, 99), ip)).status).toBe(401);
  });
});

test.describe("sessions", () => {
  test("the session cookie is HttpOnly and SameSite=Lax (Secure only over https)", async () => {
    const email = uniqueEmail("cookie");
    await createVerifiedAccount(email, PASSWORD, siteOrigin());
    const res = await signIn(email, PASSWORD);
    expect(res.status).toBe(200);
    const cookie = sessionCookie(res.setCookies);
    expect(cookie, res.setCookies.join("\n")).toBeTruthy();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    // The e2e server is served over http: a Secure cookie would never be sent back.
    expect(cookie).not.toMatch(/;\s*Secure/i);
    for (const c of res.setCookies) expect(c).toMatch(/HttpOnly/i);
  });

  test("a new token at every sign-in; after sign-out the old cookie is refused", async () => {
    const email = uniqueEmail("signout");
    const { cookie: verifyCookie } = await createVerifiedAccount(email, PASSWORD, siteOrigin());
    const ip = freshIp();
    const first = await signIn(email, PASSWORD, ip);
    const second = await signIn(email, PASSWORD, ip);
    const tokens = [verifyCookie, cookieHeader(first.setCookies), cookieHeader(second.setCookies)];
    expect(new Set(tokens).size).toBe(3);
    const firstBody = first.json<{ token: string }>();
    const secondBody = second.json<{ token: string }>();
    expect(firstBody.token).not.toBe(secondBody.token);

    const cookie = cookieHeader(second.setCookies);
    const before = await raw({ path: "/api/auth/get-session", ip, headers: { cookie } });
    expect(before.json<{ user: { email: string } }>().user.email).toBe(email);

    const out = await post("/api/auth/sign-out", {}, { ip, cookie });
    expect(out.status).toBe(200);
    const replay = await raw({ path: "/api/auth/get-session", ip, headers: { cookie } });
    expect(replay.status).toBe(200);
    expect(replay.json()).toBeNull();
    // The other session (first sign-in) is still valid: sign-out ends only its own session.
    const other = await raw({ path: "/api/auth/get-session", ip, headers: { cookie: cookieHeader(first.setCookies) } });
    expect(other.json<{ user: { email: string } } | null>()?.user.email).toBe(email);
    // And the replayed cookie opens no page either.
    const page = await raw({ path: "/dashboard", ip, headers: { cookie } });
    expect(page.status).toBe(302);
    expect(page.headers.location).toMatch(/^\/auth\?next=/);
  });
});

test.describe("per-IP rate limit", () => {
  test("the 11th sign-in within a minute gets 429, and spoofed forwarding headers do not reset it", async () => {
    const ip = freshIp();
    const email = uniqueEmail("flood");
    for (let i = 0; i < 10; i++) {
      const res = await signIn(email, `wrong-${i}-password`, ip);
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const eleventh = await signIn(email, "wrong-11-password", ip);
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers["x-retry-after"])).toBeGreaterThan(0);

    const spoofs: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.7" },
      { "x-client-ip": "203.0.113.8" },
      { "x-real-ip": "203.0.113.9" },
      { "x-forwarded-for": "::ffff:203.0.113.10", "x-client-ip": "2001:db8::1" },
    ];
    for (const headers of spoofs) {
      const res = await post("/api/auth/sign-in/email", { email, password: "x-wrong-password" }, { ip, headers });
      expect(res.status, JSON.stringify(headers)).toBe(429);
    }
    // Other spellings of the path either miss the sign-in handler or share its counter: none gets a
    // fresh one (a 401 would mean a wrong password was checked again).
    const spellings = [
      "//api/auth/sign-in/email",
      "/api//auth/sign-in/email",
      "/api/auth//sign-in/email",
      "/api/auth/sign-in//email",
      "/api/auth/sign-in/email/",
      "/api/auth/./sign-in/email",
      "/api/auth/x/../sign-in/email",
      "/api/auth/sign-in/%65mail",
      "/api/auth/Sign-In/email",
      "/api/auth/sign-in/email;x",
      "/api/auth/sign-in/email%2F",
      "/api/auth/sign-in/email?x=1",
    ];
    for (const path of spellings) {
      const res = await raw({
        method: "POST",
        path,
        ip,
        headers: { origin: siteOrigin() },
        body: { email, password: "x-wrong-password" },
      });
      expect([404, 405, 415, 429], path).toContain(res.status);
    }

    // The /auth form goes through the same handler, so it is limited too, and says so.
    const viaForm = await raw({
      method: "POST",
      path: "/auth?tab=signin",
      ip,
      headers: { origin: siteOrigin(), ...FORM },
      body: form({ intent: "signin", email, password: "wrong-password" }),
    });
    expect(viaForm.status).toBe(429);
    expect(viaForm.text).toContain("Too many attempts. Please wait a minute and try again.");

    // Another client is not affected.
    expect((await signIn(email, "wrong-password", freshIp())).status).toBe(401);
  });

  test("the profile page's password change has the limit of /api/auth/change-password, and says so in the form", async () => {
    const email = uniqueEmail("change-flood");
    const { cookie } = await createVerifiedAccount(email, PASSWORD, siteOrigin());
    const ip = freshIp();
    /** The page's change-password form as a browser without JavaScript posts it. */
    const change = (currentPassword: string) =>
      raw({
        method: "POST",
        path: "/dashboard/profile",
        ip,
        headers: { origin: siteOrigin(), cookie, ...FORM },
        body: form({
          intent: "password",
          currentPassword,
          newPassword: "never-set-passphrase",
          confirmPassword: "never-set-passphrase",
        }),
      });
    for (let i = 0; i < 10; i++) {
      const res = await change(`wrong-current-${i}`);
      expect(res.status, `attempt ${i + 1}`).toBe(400);
      expect(passwordForm(res.text)).toContain("Current password is incorrect");
    }
    const eleventh = await change("wrong-current-10");
    expect(eleventh.status).toBe(429);
    expect(passwordForm(eleventh.text)).toMatch(/role="alert"[^>]*>Too many attempts\. Please wait a minute and try again\.</);
    // The form and the API share one allowance per address.
    const api = await post(
      "/api/auth/change-password",
      { currentPassword: "wrong-current-11", newPassword: "never-set-passphrase" },
      { ip, cookie },
    );
    expect(api.status).toBe(429);
  });
});

test.describe("the /auth action", () => {
  test("bad bodies and wrong types get 400 with a message, never a 500", async () => {
    // Not a form at all: refused with 415 before the action runs (app/server/http/form-body.server.ts).
    for (const [body, headers] of [
      ['{"intent":"signin","email":"a@b.co","password":"x"}', { "content-type": "application/json" }],
      ["{not json", { "content-type": "application/json" }],
      ["intent=signin", { "content-type": "multipart/form-data" }],
    ] as const) {
      const res = await sendToAuth(body, headers);
      expect(res.status, body).toBe(415);
      expect(res.text).not.toMatch(/at .+\.(js|ts):\d+/);
    }
    const cases: [string, Record<string, string>][] = [
      [form({ intent: "signin", email: "not-an-email", password: "x" }), FORM],
      [form({ intent: "signin", email: "a@example.com" }), FORM],
      [form({ intent: "hack", email: "a@example.com", password: "x" }), FORM],
      [form({ email: "a@example.com", password: "x" }), FORM],
      [form({ intent: "signin", email: "a@example.com", password: "x", role: "admin" }), FORM],
      [form({ intent: "signup", email: "a@example.com", password: "long-enough-1", firstName: "x".repeat(500) }), FORM],
      [form({ intent: "signin", email: `${"a".repeat(300)}@example.com`, password: "x" }), FORM],
      [form({ intent: "reset", token: "", password: "long-enough-1" }), FORM],
      [form({ intent: "signin", email: "' OR 1=1 --", password: "' OR 1=1 --" }), FORM],
    ];
    for (const [body, headers] of cases) {
      const res = await sendToAuth(body, headers);
      expect(res.status, body).toBe(400);
      expect(res.text, body).toMatch(/role="alert"[^>]*>[^<]+</);
      expect(res.text).not.toMatch(/at .+\.(js|ts):\d+/);
    }
    // A file where a string belongs.
    const boundary = "----e2eboundary";
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="intent"',
      "",
      "signin",
      `--${boundary}`,
      'Content-Disposition: form-data; name="email"; filename="x.txt"',
      "Content-Type: text/plain",
      "",
      "a@example.com",
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const file = await sendToAuth(multipart, { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect(file.status).toBe(400);
    // Oversize bodies are refused before they are parsed.
    const huge = await sendToAuth(form({ intent: "signin", email: "a@example.com", password: "x".repeat(40_000) }), FORM);
    expect(huge.status).toBe(413);
  });

  test("a cross-origin, null-origin or origin-less POST to /auth is refused with 403", async () => {
    const body = form({ intent: "signin", email: "a@example.com", password: "whatever-password" });
    for (const origin of ["https://evil.example", "null", siteOrigin().replace("localhost", "127.0.0.1")]) {
      const res = await raw({ method: "POST", path: "/auth", headers: { origin, ...FORM }, body });
      expect(res.status, origin).toBe(403);
    }
    const none = await raw({ method: "POST", path: "/auth", headers: FORM, body });
    expect(none.status).toBe(403);
  });

  test("redirects after sign-in never leave the site", async () => {
    const email = uniqueEmail("next");
    await createVerifiedAccount(email, PASSWORD, siteOrigin());
    for (const [next, expected] of [
      ["//evil.example", "/dashboard?toast=welcome-back"],
      ["https://evil.example/x", "/dashboard?toast=welcome-back"],
      ["/\\evil.example", "/dashboard?toast=welcome-back"],
      // Browsers drop tabs and newlines from a URL: these would become //evil.example.
      ["/\t/evil.example", "/dashboard?toast=welcome-back"],
      ["/\n/evil.example", "/dashboard?toast=welcome-back"],
      ["/dashboard/billing", "/dashboard/billing?toast=welcome-back"],
      ["/dashboard/billing?x=1", "/dashboard/billing?x=1&toast=welcome-back"],
      // An encoded slash or backslash in the path: no page has one, and Better Auth refuses it as
      // the sign-in's callback URL. The right password still signs in, and lands on the dashboard.
      ["/dashboard%2Fbilling", "/dashboard?toast=welcome-back"],
      ["/dashboard%2fbilling", "/dashboard?toast=welcome-back"],
      ["/dashboard%5Cbilling", "/dashboard?toast=welcome-back"],
      ["/%2F%2Fevil.example", "/dashboard?toast=welcome-back"],
      // A page that shows no toast gets its own address back (the apps page after a trial click).
      ["/apps?tab=monthly", "/apps?tab=monthly"],
    ] as const) {
      // An address per sign-in: more than ten from one would meet the per-IP limit.
      const res = await raw({
        method: "POST",
        path: "/auth",
        ip: freshIp(),
        headers: { origin: siteOrigin(), ...FORM },
        body: form({ intent: "signin", email, password: PASSWORD, next }),
      });
      expect(res.status, next).toBe(302);
      expect(res.headers.location, next).toBe(expected);
      const cookie = sessionCookie(res.setCookies);
      expect(cookie).toBeTruthy();
      // A signed-in visitor opening /auth is sent on to `next`: the same rule.
      const again = await raw({
        path: `/auth?next=${encodeURIComponent(next)}`,
        headers: { cookie: cookie!.split(";")[0] ?? "" },
      });
      expect(again.status, next).toBe(302);
      expect(again.headers.location, next).toBe(expected.replace(/[?&]toast=welcome-back$/, ""));
    }
  });
});
