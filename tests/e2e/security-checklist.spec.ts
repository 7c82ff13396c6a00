import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DISTRIBUTOR_PROGRAM, QUICK_PICK_PLANS } from "../../app/catalogue/plans";
import { quotePackage } from "../../app/catalogue/pricing";
import { DEFAULT_SETTINGS } from "../../app/server/profile/settings.server";
import { siteOrigin, uniqueEmail } from "./support/auth";
import { createVerifiedAccount, freshIp, raw, type RawResponse } from "./support/loopback";
import { APP_ROUTES, dataRedirect, dataUrl, decodeData } from "./support/routes";

/**
 * Security rules the route-by-route specs covered only in part: the per-account sign-in throttle
 * driven over HTTP, the Origin check on every route and method, callback URLs of the auth API and
 * client-supplied money fields on every checkout kind.
 */
const PASSWORD = "correct-horse-battery";

// Each test makes accounts of its own. Their work is long (a hundred password checks; every route
// and method), and the file comes late in the run: side by side, both workers share it instead of
// one working through it alone at the end.
test.describe.configure({ mode: "parallel" });

interface Account {
  email: string;
  ip: string;
  cookie: string;
}

async function account(prefix: string): Promise<Account> {
  const email = uniqueEmail(prefix);
  const { cookie } = await createVerifiedAccount(email, PASSWORD, siteOrigin());
  return { email, ip: freshIp(), cookie };
}

function send(
  who: Account | null,
  method: string,
  pathname: string,
  opts: { origin?: string | null; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  const origin = opts.origin === undefined ? siteOrigin() : opts.origin;
  if (origin !== null) headers.origin = origin;
  if (who) headers.cookie = who.cookie;
  let body: unknown;
  if (opts.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) body = opts.json;
  return raw({ method, path: pathname, ip: who?.ip, headers, body });
}

async function loaderData<T>(who: Account, pageUrl: string, routeId: string): Promise<T> {
  const res = await send(who, "GET", dataUrl(pageUrl, [routeId]));
  expect(res.status, `${pageUrl} ${res.text.slice(0, 200)}`).toBe(200);
  return (await decodeData(res.text))[routeId]!.data as T;
}

async function unpaidCheckout(who: Account): Promise<string> {
  const res = await send(who, "POST", "/api/checkout", { json: { kind: "app", appId: 7, tab: "base" } });
  expect(res.status, res.text).toBe(200);
  return res.json<{ url: string }>().url.split("/").pop()!;
}

/** A sign-in from `ip` whose forwarding headers name another client every time: the server believes none. */
const signInSpoofed = (email: string, password: string, ip: string, spoof: number) =>
  raw({
    method: "POST",
    path: "/api/auth/sign-in/email",
    ip,
    headers: {
      origin: siteOrigin(),
      "x-forwarded-for": `203.0.113.${spoof % 250}`,
      "x-client-ip": `198.51.100.${spoof % 250}`,
      "x-real-ip": `192.0.2.${spoof % 250}`,
    },
    body: { email, password },
  });

test("100 wrong passwords for one account from rotating addresses and spoofed forwarding headers throttle the 101st and the right password, not other accounts", async () => {
  // A hundred real password checks (scrypt at ASVS strength) on two shared cores: a budget, nothing is timed.
  test.setTimeout(600_000);
  const victim = uniqueEmail("throttle");
  await createVerifiedAccount(victim, PASSWORD, siteOrigin());
  // 9 tries per address stays under the per-IP limit (10 a minute): only the per-account limit can bite.
  const addresses = Array.from({ length: 12 }, () => freshIp());
  const statuses: number[] = [];
  for (let i = 0; i < 100; i++)
    statuses.push((await signInSpoofed(victim, `wrong-password-${i}`, addresses[Math.floor(i / 9)]!, i)).status);
  expect(statuses.filter((s) => s !== 401)).toEqual([]);

  const hundredFirst = await signInSpoofed(victim, "wrong-password-101", freshIp(), 101);
  expect(hundredFirst.status).toBe(429);
  expect(hundredFirst.json<{ message: string }>().message).toMatch(/too many attempts for this account/i);
  // Even the right password, from an address never seen before, and in another spelling of the email.
  expect((await signInSpoofed(victim, PASSWORD, freshIp(), 102)).status).toBe(429);
  expect((await signInSpoofed(`  ${victim.toUpperCase()} `, PASSWORD, freshIp(), 103)).status).toBe(429);

  // The addresses themselves are not blocked: another account signs in from one of them.
  const other = uniqueEmail("throttle-other");
  await createVerifiedAccount(other, PASSWORD, siteOrigin());
  expect((await signInSpoofed(other, PASSWORD, addresses[0]!, 104)).status).toBe(200);
});

/** Bodies that would change the signed-in user's data if the request were let through. */
function effectiveBodies(sessionId: string): Record<string, { json?: unknown; form?: Record<string, string> }> {
  return {
    "/dashboard": { form: { intent: "start-trial", plan: "starter" } },
    "/dashboard/support": { form: { subject: "Cross-site ticket", category: "Other", message: "Sent from another site." } },
    "/dashboard/settings": { form: { intent: "preferences", smsAlerts: "on", productNews: "on", sidebar: "collapsed" } },
    "/dashboard/onboarding": { form: { intent: "complete", step: "connect-tools" } },
    "/dashboard/profile": { form: { intent: "profile", firstName: "Changed", lastName: "Bysite", companyName: "Evil" } },
    "/dashboard/billing": { form: { intent: "checkout", planType: "pro" } },
    "/dashboard/billing/manage": { form: { intent: "cancel", ref: "plan:1" } },
    "/dashboard/addons": { form: { addonIds: "seo-optimizer" } },
    "/dashboard/scaling": { form: { tierIndex: "3" } },
    [`/checkout/local/${sessionId}`]: { form: { card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
    "/api/checkout": { json: { kind: "app", appId: 7, tab: "base" } },
    "/api/callback": { json: { firstName: "Cross", email: uniqueEmail("csrf-lead"), phone: "+1 555 0199" } },
    "/live-training": { form: { firstName: "Cross", email: uniqueEmail("csrf-lead"), phone: "+1 555 0199" } },
    "/packages": { form: { planId: "starter", mode: "one-time", rush: "false" } },
    "/distributors": { form: { email: uniqueEmail("csrf-dist"), fullName: "Cross Site", businessName: "Evil Ltd" } },
    "/affiliate-signup": { form: { intent: "join", username: `csrf-${Date.now().toString(36)}` } },
    "/auth": { form: { intent: "signin", email: "someone@example.com", password: PASSWORD } },
    "/admin": { form: { intent: "retry-lead", leadId: "x" } },
    "/api/billing/sync": { json: {} },
    "/api/dashboard/visit": { json: { path: "/dashboard" } },
    "/api/billing/portal": { json: {} },
    "/api/auth/sign-out": { json: {} },
    "/api/auth/update-user": { json: { name: "Changed", firstName: "Changed" } },
    "/api/auth/change-password": {
      json: { currentPassword: PASSWORD, newPassword: "another-password-2", revokeOtherSessions: true },
    },
    "/api/auth/revoke-sessions": { json: {} },
    "/api/auth/sign-up/email": { json: { email: uniqueEmail("csrf-signup"), password: PASSWORD, name: "Cross" } },
    "/api/auth/request-password-reset": { json: { email: "someone@example.com", redirectTo: "/auth?tab=reset" } },
  };
}

/** Server-to-server endpoints with their own authentication (the Origin check exempts them). */
const ORIGIN_EXEMPT: Record<string, string> = {
  "/api/webhooks/stripe": "Stripe's webhook is authenticated by its signature on the raw body (stripe-webhook.test.ts)",
};

test("every route refuses POST, PUT, PATCH and DELETE with a missing, null or foreign Origin (403) and nothing changes", async () => {
  test.setTimeout(600_000);
  const user = await account("origin");
  const sessionId = await unpaidCheckout(user);
  const bodies = effectiveBodies(sessionId);
  // Support and onboarding refuse an account without a trial or subscription (403) whatever the
  // Origin: their requests are sent by an account with a trial, so each 403 is the Origin check's.
  const member = await account("origin-member");
  expect((await send(member, "POST", "/dashboard", bodies["/dashboard"])).status).toBe(302);
  const GATED = new Set(["/dashboard/support", "/dashboard/onboarding"]);
  // Every route of app/routes.ts (its params filled in), and the auth API's state-changing endpoints.
  const urls = new Set<string>(Object.keys(bodies));
  for (const route of APP_ROUTES) {
    urls.add(
      route.path
        .replace(":sessionId", sessionId)
        .replace(":paymentId", "1")
        .replace(":username", "someone")
        .replace(":slug", "medischeduler-ai")
        .replace(/\*$/, "anything"),
    );
  }
  const actionFiles = APP_ROUTES.filter((r) =>
    /export (async )?function action\b/.test(readFileSync(path.join("app", r.file), "utf8")),
  );
  expect(actionFiles.length).toBeGreaterThan(10);
  const site = new URL(siteOrigin());
  const badOrigins: (string | null)[] = [
    null,
    "null",
    "https://evil.example",
    `${site.origin}.evil.example`,
    `https://${site.host}`,
    `${site.protocol}//127.0.0.1:${site.port}`,
  ];
  const wrong: string[] = [];
  let requests = 0;
  for (const url of urls) {
    if (url in ORIGIN_EXEMPT || url === "/api/auth/anything") continue;
    const body = bodies[url] ?? { form: { intent: "x" } };
    const targets = [url, ...(url.startsWith("/api/") ? [] : [dataUrl(url)])];
    for (const target of targets) {
      for (const origin of badOrigins) {
        for (const method of origin === "https://evil.example" ? ["POST", "PUT", "PATCH", "DELETE"] : ["POST"]) {
          const res = await send(GATED.has(url) ? member : user, method, target, { origin, ...body });
          requests += 1;
          if (res.status !== 403) wrong.push(`${method} ${target} Origin ${origin ?? "(none)"}: ${res.status}`);
        }
      }
    }
  }
  expect(wrong).toEqual([]);
  expect(requests).toBeGreaterThan(300);

  // Nothing of the user's changed: still signed in (no sign-out or revoke), same password, no trial,
  // ticket, settings, onboarding step, profile name, affiliate row or payment.
  const me = await send(user, "GET", "/api/auth/get-session");
  expect(me.json<{ user: { email: string; firstName: string | null } }>().user).toMatchObject({
    email: user.email,
    firstName: null,
  });
  expect(
    (await loaderData<{ trial: { started: boolean } }>(user, "/dashboard", "routes/_dashboard/overview")).trial.started,
  ).toBe(false);
  expect((await loaderData<{ tickets: unknown[] }>(user, "/dashboard/support", "routes/_dashboard/support")).tickets).toEqual([]);
  expect((await loaderData<{ settings: unknown }>(user, "/dashboard/settings", "routes/_dashboard/settings")).settings).toEqual(
    DEFAULT_SETTINGS,
  );
  const steps = (
    await loaderData<{ steps: { id: string; completed: boolean }[] }>(
      user,
      "/dashboard/onboarding",
      "routes/_dashboard/onboarding",
    )
  ).steps;
  expect(steps.filter((s) => s.completed).map((s) => s.id)).toEqual(["create-account"]);
  const history = (await loaderData<{ history: { status: string }[] }>(user, "/dashboard/billing", "routes/_dashboard/billing"))
    .history;
  expect(history.map((h) => h.status)).toEqual(["pending"]);
  const affiliate = await send(user, "GET", "/affiliate-dashboard");
  expect([affiliate.status, affiliate.headers.location]).toEqual([302, "/affiliate-signup"]);
  expect((await send(null, "POST", "/api/auth/sign-in/email", { json: { email: user.email, password: PASSWORD } })).status).toBe(
    200,
  );

  for (const route of ["support", "onboarding"]) {
    const own = await loaderData<{ tickets?: unknown[]; steps?: { id: string; completed: boolean }[] }>(
      member,
      `/dashboard/${route}`,
      `routes/_dashboard/${route}`,
    );
    if (route === "support") expect(own.tickets).toEqual([]);
    else expect(own.steps?.filter((s) => s.completed).map((s) => s.id)).toEqual(["create-account"]);
  }

  // The same bodies with the site's own Origin do change things: the 403s above were the Origin check.
  expect((await send(member, "POST", "/dashboard/support", bodies["/dashboard/support"])).status).toBe(200);
  expect(
    (await loaderData<{ tickets: unknown[] }>(member, "/dashboard/support", "routes/_dashboard/support")).tickets,
  ).toHaveLength(1);
  const paid = await send(user, "POST", `/checkout/local/${sessionId}`, bodies[`/checkout/local/${sessionId}`]);
  expect(paid.status).toBe(302);
});

/** A POST to the auth API from a new address each time: sign-up is limited to 5 a minute per address. */
const authPost = (pathname: string, json: Record<string, unknown>) =>
  raw({ method: "POST", path: pathname, ip: freshIp(), headers: { origin: siteOrigin() }, body: json });

test("the auth API refuses callback and redirect URLs that leave the site", async () => {
  const site = new URL(siteOrigin());
  const away = [
    "https://evil.example/x",
    "//evil.example/x",
    "/\\evil.example",
    `${site.origin}.evil.example/`,
    "javascript:alert(1)",
  ];
  for (const url of away) {
    const signUp = await authPost("/api/auth/sign-up/email", {
      email: uniqueEmail("cb"),
      password: PASSWORD,
      name: "Cb",
      callbackURL: url,
    });
    expect([signUp.status, signUp.json<{ code: string }>().code], `sign-up ${url}`).toEqual([403, "INVALID_CALLBACK_URL"]);
    const signIn = await authPost("/api/auth/sign-in/email", {
      email: "nobody@example.com",
      password: "x-wrong-pass",
      callbackURL: url,
    });
    expect(signIn.status, `sign-in ${url}`).toBe(403);
  }
  // The reset request is limited to 5 a minute per address: one address per URL.
  for (const url of away) {
    const reset = await raw({
      method: "POST",
      path: "/api/auth/request-password-reset",
      ip: freshIp(),
      headers: { origin: siteOrigin() },
      body: { email: "nobody@example.com", redirectTo: url },
    });
    expect([reset.status, reset.json<{ code: string }>().code], `reset ${url}`).toEqual([403, "INVALID_REDIRECT_URL"]);
  }

  // A verification link whose callbackURL was swapped for another site's is refused, not followed.
  const email = uniqueEmail("cb-verify");
  const up = await authPost("/api/auth/sign-up/email", { email, password: PASSWORD, name: "Cb", callbackURL: "/dashboard" });
  expect(up.status).toBe(200);
  const mails = await raw({ path: `/dev/mailbox.json?to=${encodeURIComponent(email)}` });
  const link = new URL(
    mails
      .json<{ subject: string; text: string }[]>()
      .find((m) => /verify/i.test(m.subject))!
      .text.match(/https?:\/\/\S+/)![0],
  );
  expect(link.searchParams.get("callbackURL")).toBe("/dashboard");
  for (const url of away) {
    link.searchParams.set("callbackURL", url);
    const res = await raw({ path: link.pathname + link.search });
    expect(res.status, url).toBe(403);
    expect(res.headers.location ?? "", url).not.toContain("evil");
  }
});

test("amount, price, discount and multiplier fields are refused on every checkout kind; the no-JavaScript forms charge the catalogue price", async () => {
  const user = await account("amounts");
  const kinds: Record<string, unknown>[] = [
    { kind: "app", appId: 7, tab: "base" },
    { kind: "package", planId: "starter", mode: "one-time", rush: false },
    { kind: "plan", planType: "basic" },
    { kind: "scaling", tierIndex: 0 },
    { kind: "addons", addonIds: ["seo-optimizer"] },
    { kind: "distributor", email: uniqueEmail("dist"), fullName: "Dana Distributor", businessName: "Dana Ltd" },
  ];
  for (const body of kinds) {
    for (const field of ["amount", "price", "discount", "multiplier", "total", "unitAmount", "setupFee", "currency"]) {
      const res = await send(user, "POST", "/api/checkout", { json: { ...body, [field]: field === "currency" ? "jpy" : 1 } });
      expect([res.status, res.json()], `${String(body.kind)} + ${field}`).toEqual([
        400,
        { code: "invalid_input", message: `Unexpected field: ${field}`, error: `Unexpected field: ${field}` },
      ]);
    }
  }
  const history = (await loaderData<{ history: unknown[] }>(user, "/dashboard/billing", "routes/_dashboard/billing")).history;
  expect(history).toEqual([]);

  // The forms (packages, distributors) read only the fields they know: money fields are dropped.
  const hostedAmounts = async (pathname: string, form: Record<string, string>) => {
    const res = await send(user, "POST", pathname, {
      form: { ...form, amount: "1", price: "1", setupFee: "0", multiplier: "0.01" },
    });
    expect(res.status, res.text.slice(0, 200)).toBe(302);
    const sessionPath = res.headers.location!;
    expect(sessionPath).toMatch(/^\/checkout\/local\/cs_local_/);
    return loaderData<{ amount: number; setupFee: number }>(user, sessionPath, "routes/checkout.local");
  };
  const starter = QUICK_PICK_PLANS.find((p) => p.id === "starter")!;
  expect((await hostedAmounts("/packages", { planId: "starter", mode: "one-time", rush: "false" })).amount).toBe(
    quotePackage(starter, { mode: "one-time", rush: false }).amount,
  );
  expect(
    await hostedAmounts("/distributors", {
      email: uniqueEmail("dist-form"),
      fullName: "Dana Distributor",
      businessName: "Dana Ltd",
    }),
  ).toMatchObject({ amount: DISTRIBUTOR_PROGRAM.monthlyFee, setupFee: DISTRIBUTOR_PROGRAM.setupFee });
  // A data (fetcher) submission of the same form is priced the same way.
  const viaData = await send(user, "POST", dataUrl("/packages"), {
    form: { planId: "starter", mode: "monthly", rush: "true", amount: "1" },
  });
  const target = dataRedirect(viaData.text);
  expect([viaData.status, target]).toEqual([202, expect.stringMatching(/^\/checkout\/local\/cs_local_/)]);
  expect((await loaderData<{ amount: number }>(user, target!, "routes/checkout.local")).amount).toBe(
    quotePackage(starter, { mode: "monthly", rush: true }).amount,
  );
});
