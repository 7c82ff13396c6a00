import { expect, test, type Browser } from "@playwright/test";
import { ADDONS } from "../../app/catalogue/addons";
import { QUICK_PICK_PLANS } from "../../app/catalogue/plans";
import { DEFAULT_SETTINGS } from "../../app/server/profile/settings.server";
import { signUpVerified, siteOrigin, uniqueEmail } from "./support/auth";
import { cookieHeader, freshIp, mailLink, raw, type RawResponse } from "./support/loopback";
import { operatorCookie } from "./support/operator";
import { APP_ROUTES, dataRedirect, dataUrl, decodeData, matchedRouteIds } from "./support/routes";

/**
 * Access control, as one sweep: nothing a customer owns is reachable by another
 * signed-in customer, another affiliate or a signed-out visitor, through any page of app/routes.ts
 * or its React Router data requests (`.data`, and `?_routes=` with each loader alone, which is how
 * a loader without its own guard would leak behind a guarded layout), with the owner's ids in the
 * URL wherever a route takes one.
 *
 * Customer A (referred by affiliate A) has one of everything: a trial, onboarding progress, a
 * support ticket, settings, a paid app, package, plan, scaling tier, add-ons and distributor order,
 * one unpaid order, and a lead. Every unique string of theirs (names, emails, ids, session ids,
 * timestamps) is a marker; the owners themselves (A, affiliate A, the operator for the lead) must
 * see each marker somewhere, so an absent marker means something. Then customer B, affiliate C and
 * an anonymous visitor fetch every route: the expected status, none of the markers, and B's and C's
 * own data is empty (B owns nothing, so anything listed there belongs to someone else).
 */

const PASSWORD = "correct-horse-battery";
/** Hundreds of requests per test on two shared cores: a budget, not a measurement (nothing is timed). */
const SWEEP_TIMEOUT = 600_000;

/** What a viewer must get: a status, a redirect to sign-in, or a redirect to exactly this location. */
type Want = 200 | 401 | 404 | 405 | "auth" | `->${string}`;
type Viewer = "anon" | "B" | "C";

interface Probe {
  url: string;
  anon: Want;
  /** Customer B; also affiliate C unless `C` says otherwise. */
  B: Want;
  C?: Want;
  /** Overrides for the `.data` requests (resource routes that are not React Router data). */
  data?: Partial<Record<Viewer, Want>>;
  /** Why this route may show the ids the URL itself carries (it echoes what the visitor typed). */
  echo?: string;
}

type Entry =
  /** A layout: what its own loader answers when asked alone (`?_routes=<its id>`) under any child URL. */
  | { layout: { anon: Want; B: Want; C?: Want } }
  /** A route that shows no user data to anyone, with the reason. Not fetched. */
  | { public: string }
  | { probes: (ids: Ids) => Probe[] };

interface Ids {
  /** Session ids of A's orders: paid app, package, plan, scaling, add-ons, distributor; and an unpaid app. */
  sessions: Record<OrderKind, string>;
  /** A's order ids (the orders table's primary keys). */
  orders: string[];
  /** A's payment ids (each a receipt: /dashboard/billing/receipts/:id). */
  payments: number[];
  affiliateUsername: string;
  leadId: string;
}

type OrderKind = "app" | "package" | "plan" | "scaling" | "addons" | "distributor" | "unpaid";

const page = (url: string, anon: Want, B: Want, extra: Partial<Probe> = {}): Probe => ({ url, anon, B, ...extra });

/**
 * Every module of app/routes.ts, by file. A route missing here fails the first test: add probes
 * for it (or, if it truly shows nobody's data, say why under `public`).
 */
const SWEEP: Record<string, Entry> = {
  "routes/sitemap.ts": { probes: () => [page("/sitemap.xml", 200, 200)] },
  "routes/robots.ts": { probes: () => [page("/robots.txt", 200, 200)] },
  "routes/api/auth.ts": {
    // Better Auth's own endpoints answer for the caller's session only. `.data` is not its URL space: 404.
    probes: () =>
      ["/api/auth/get-session", "/api/auth/list-sessions", "/api/auth/list-accounts"].map((url) =>
        page(url, url.endsWith("get-session") ? 200 : 401, 200, { data: { anon: 404, B: 404, C: 404 } }),
      ),
  },
  "routes/api/checkout.ts": { probes: () => [page("/api/checkout", 405, 405)] },
  "routes/api/webhooks.stripe.ts": { probes: () => [page("/api/webhooks/stripe", 405, 405)] },
  "routes/api/billing.portal.ts": { probes: () => [page("/api/billing/portal", 405, 405)] },
  "routes/api/billing.sync.ts": { probes: () => [page("/api/billing/sync", 405, 405)] },
  "routes/api/dashboard.visit.ts": { probes: () => [page("/api/dashboard/visit", 405, 405)] },
  "routes/api/callback.ts": { probes: () => [page("/api/callback", 405, 405)] },
  // Not a redirect to sign-in, which would tell a visitor the page exists: the site's 404 for everyone but operators.
  "routes/admin.tsx": { probes: () => [page("/admin", 404, 404)] },
  "routes/admin.payouts.tsx": { probes: () => [page("/admin/payouts", 404, 404)] },
  // A resource route (a CSV file): its `.data` URL is no page of the app's.
  "routes/admin.payouts-csv.ts": {
    probes: () => [page("/admin/payouts/1/csv", 404, 404, { data: { anon: 404, B: 404, C: 404 } })],
  },
  // The operator console's tables, exports and record pages: the same 404, whatever the id.
  "routes/admin/table.tsx": {
    probes: () =>
      ["customers", "orders", "leads", "affiliates", "tickets", "emails", "audit", "apps", "addons", "nothing"].map((t) =>
        page(`/admin/${t}?q=a`, 404, 404),
      ),
  },
  "routes/admin/export.ts": {
    probes: () => ["customers", "orders", "leads"].map((t) => page(`/admin/export/${t}`, 404, 404)),
  },
  "routes/admin/order.tsx": { probes: (ids) => ids.orders.map((id) => page(`/admin/orders/${id}`, 404, 404)) },
  "routes/admin/lead.tsx": { probes: (ids) => [page(`/admin/leads/${ids.leadId}`, 404, 404)] },
  "routes/admin/customer.tsx": { probes: () => [page("/admin/customers/guessed-user-id", 404, 404)] },
  "routes/admin/ticket.tsx": { probes: () => [page("/admin/tickets/1", 404, 404)] },
  "routes/admin/email.tsx": {
    probes: () => [page("/admin/emails/1", 404, 404), page("/admin/emails/abc", 404, 404)],
  },
  "routes/admin/app.tsx": { probes: () => [page("/admin/apps/1", 404, 404), page("/admin/apps/new", 404, 404)] },
  "routes/admin/addon.tsx": { probes: () => [page("/admin/addons/email-campaign-builder", 404, 404)] },
  "routes/admin/plans.tsx": { probes: () => [page("/admin/plans", 404, 404)] },
  "routes/admin/plan.tsx": {
    probes: () => [
      page("/admin/plans/plan-pro", 404, 404),
      page("/admin/plans/distributor", 404, 404),
      page("/admin/plans/package-starter", 404, 404),
    ],
  },
  "routes/affiliate-dashboard.tsx": {
    probes: (ids) => [
      page("/affiliate-dashboard", "auth", "->/affiliate-signup", { C: 200 }),
      page(
        `/affiliate-dashboard?toast=account-created&username=${ids.affiliateUsername}`,
        "auth",
        `->/affiliate-signup?username=${ids.affiliateUsername}`,
        { C: 200, echo: "a customer who is no affiliate is sent to the sign-up with the username they typed" },
      ),
    ],
  },
  "routes/receipt.tsx": {
    probes: (ids) => [...ids.payments, 0, 999_999].map((id) => page(`/dashboard/billing/receipts/${id}`, "auth", 404)),
  },
  "routes/checkout.local.tsx": {
    probes: (ids) =>
      [...Object.values(ids.sessions), ...ids.orders, "cs_local_guessed0000000000000000000000"].map((id) =>
        page(`/checkout/local/${id}`, "auth", 404),
      ),
  },
  "routes/dev/mailbox.tsx": {
    public:
      "the local dev mailbox shows every email by design; it exists only without SMTP_URL on a site served on localhost (devMailboxEnabled)",
  },
  "routes/dev/mailbox-json.ts": { public: "the dev mailbox as JSON, same rule as /dev/mailbox" },
  "routes/auth.tsx": {
    probes: () => [page("/auth", 200, "->/dashboard"), page("/auth?next=%2Fdashboard%2Fbilling", 200, "->/dashboard/billing")],
  },
  "routes/_dashboard/layout.tsx": { layout: { anon: "auth", B: 200 } },
  // Pathless, no loader: it holds the pages' error boundary and answers no data of its own.
  "routes/_dashboard/pages.tsx": { layout: { anon: 200, B: 200 } },
  "routes/_dashboard/overview.tsx": {
    probes: (ids) => [
      page("/dashboard", "auth", 200),
      page(`/dashboard?session_id=${ids.sessions.plan}&plan=growth`, "auth", 200),
    ],
  },
  "routes/_dashboard/billing.tsx": {
    probes: (ids) => [
      page("/dashboard/billing", "auth", 200),
      page(`/dashboard/billing?success=true&session_id=${ids.sessions.plan}`, "auth", 200),
    ],
  },
  "routes/_dashboard/billing.manage.tsx": { probes: () => [page("/dashboard/billing/manage", "auth", 200)] },
  // A plan change's confirmation page: only the account that asked for the change finds it.
  "routes/_dashboard/billing.change.tsx": {
    probes: (ids) =>
      [...ids.orders, "00000000-0000-4000-8000-00000000beef"].map((id) => page(`/dashboard/billing/change/${id}`, "auth", 404)),
  },
  "routes/_dashboard/addons.tsx": {
    probes: (ids) => [
      page("/dashboard/addons", "auth", 200),
      page(`/dashboard/addons?success=true&session_id=${ids.sessions.addons}`, "auth", 200),
    ],
  },
  "routes/_dashboard/scaling.tsx": {
    probes: (ids) => [
      page("/dashboard/scaling", "auth", 200),
      page(`/dashboard/scaling?success=true&session_id=${ids.sessions.scaling}`, "auth", 200),
    ],
  },
  "routes/_dashboard/onboarding.tsx": { probes: () => [page("/dashboard/onboarding", "auth", 200)] },
  "routes/_dashboard/profile.tsx": { probes: () => [page("/dashboard/profile", "auth", 200)] },
  "routes/_dashboard/analytics.tsx": { probes: () => [page("/dashboard/analytics", "auth", 200)] },
  "routes/_dashboard/settings.tsx": { probes: () => [page("/dashboard/settings", "auth", 200)] },
  "routes/_dashboard/support.tsx": { probes: () => [page("/dashboard/support", "auth", 200)] },
  "routes/_dashboard/automation.tsx": { probes: () => [page("/dashboard/automation", "auth", 200)] },
  "routes/_dashboard/not-found.tsx": {
    probes: (ids) => [
      page(`/dashboard/${ids.sessions.app}`, "auth", 404),
      page(`/dashboard/orders/${ids.orders[0]}`, "auth", 404),
      page(`/dashboard/tickets/1`, "auth", 404),
    ],
  },
  "routes/_marketing/layout.tsx": { layout: { anon: 200, B: 200 } },
  ...Object.fromEntries(
    [
      ["home", "/"],
      ["how-it-works", "/how-it-works"],
      ["results", "/results"],
      ["industries", "/industries"],
      ["goals", "/goals"],
      ["packages", "/packages"],
      ["questionnaire", "/questionnaire"],
      ["apps", "/apps"],
      ["live-training", "/live-training"],
      ["earn", "/earn"],
      ["distributors", "/distributors"],
      ["payment-cancel", "/payment-cancel"],
      ["privacy", "/privacy"],
      ["terms", "/terms"],
    ].map(([name, url]) => [`routes/_marketing/${name}.tsx`, { probes: () => [page(url!, 200, 200)] } satisfies Entry]),
  ),
  // A checkout's return page: no order of another customer's is found (404); a visitor is asked to
  // sign in and come back to the id they typed.
  "routes/_marketing/distributor-success.tsx": {
    probes: (ids) =>
      [ids.sessions.distributor, ids.sessions.app, ids.orders[0]!].map((id) =>
        page(`/distributor-success?session_id=${id}`, 200, 404, {
          echo: "a signed-out visitor's sign-in link comes back to the session id they typed (nothing of the order is shown)",
        }),
      ),
  },
  "routes/_marketing/payment-success.tsx": {
    probes: (ids) => [
      ...Object.values(ids.sessions).map((id) =>
        page(`/payment-success?session_id=${id}`, 200, 404, {
          echo: "a signed-out visitor's sign-in link comes back to the session id they typed (only the owner sees the order)",
        }),
      ),
      ...ids.orders.map((id) => page(`/payment-success?order=${id}`, 404, 404)),
    ],
  },
  // An app's public page (the catalogue's data only); an unknown slug is the 404.
  "routes/_marketing/apps.detail.tsx": {
    probes: () => [page("/apps/medischeduler-ai", 200, 200), page("/apps/no-such-app", 404, 404)],
  },
  "routes/_marketing/ref.tsx": {
    probes: (ids) => [page(`/ref/${ids.affiliateUsername}`, 200, 200)],
  },
  "routes/_marketing/affiliate-signup.tsx": {
    probes: (ids) => [
      page("/affiliate-signup", 200, 200, { C: "->/affiliate-dashboard" }),
      page(`/affiliate-signup?username=${ids.affiliateUsername}`, 200, 200, {
        C: "->/affiliate-dashboard",
        echo: "a signed-in customer's join form suggests the username from the URL (it says whether it is taken)",
      }),
    ],
  },
  "routes/_marketing/not-found.tsx": {
    probes: (ids) => [page("/no-such-page", 404, 404), page(`/orders/${ids.orders[0]}`, 404, 404)],
  },
};

// ---------------------------------------------------------------------------------------------
// Identities and their requests (each from a loopback address of its own: support/loopback.ts).

interface Identity {
  name: string;
  ip: string;
  cookie: string;
}

const anonymous: Identity = { name: "anonymous", ip: freshIp(), cookie: "" };

function get(who: Identity, path: string) {
  return raw({ path, ip: who.ip, headers: who.cookie ? { cookie: who.cookie } : {} });
}

function post(who: Identity, path: string, body: Record<string, string> | object, asForm = true) {
  return raw({
    method: "POST",
    path,
    ip: who.ip,
    headers: {
      origin: siteOrigin(),
      ...(who.cookie ? { cookie: who.cookie } : {}),
      ...(asForm ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: asForm ? new URLSearchParams(body as Record<string, string>).toString() : body,
  });
}

/** The decoded loader data of one route in a `.data` answer. */
async function loaderData<T>(who: Identity, pageUrl: string, routeId: string): Promise<T> {
  const res = await get(who, dataUrl(pageUrl, [routeId]));
  expect(res.status, `${who.name} ${pageUrl}`).toBe(200);
  return (await decodeData(res.text))[routeId]!.data as T;
}

/** Cancels `who`'s plan at the end of its period on local Manage Billing, as the customer would. */
async function cancelPlanAtPeriodEnd(who: Identity) {
  const { subscriptions } = await loaderData<{ subscriptions: { ref: string }[] }>(
    who,
    "/dashboard/billing/manage",
    "routes/_dashboard/billing.manage",
  );
  const ref = subscriptions.find((s) => s.ref.startsWith("plan:"))?.ref;
  expect(ref, "the plan's row on Manage Billing").toBeTruthy();
  const res = await post(who, "/dashboard/billing/manage", { intent: "cancel", ref: ref! });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
}

/** A page's loader data as `who` gets it, whatever the status (a 404's data too). */
async function returnData(who: Identity, url: string, routeId: string) {
  const res = await get(who, dataUrl(url, [routeId]));
  return { status: res.status, data: (await decodeData(res.text))[routeId]?.data };
}

/** A verified account made through the real sign-up (support/auth.ts), as a cookie for raw requests. */
async function customer(browser: Browser, opts: Parameters<typeof signUpVerified>[1], refUsername?: string): Promise<Identity> {
  const context = await browser.newContext({ baseURL: siteOrigin() });
  const p = await context.newPage();
  // The referral link first, so the sign-up carries its cookie (affiliate A earns from A).
  if (refUsername) expect((await p.request.get(`/ref/${refUsername}`)).status()).toBe(200);
  await signUpVerified(p, opts);
  const cookies = await context.cookies(siteOrigin());
  await context.close();
  expect(cookies.some((c) => c.name.endsWith("session_token"))).toBe(true);
  return { name: opts?.email ?? "customer", ip: freshIp(), cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") };
}

/** An affiliate made through the /affiliate-signup form and its verification link. */
async function affiliate(fields: { firstName: string; lastName: string; email: string; businessName: string; username: string }) {
  const ip = freshIp();
  const who: Identity = { name: fields.email, ip, cookie: "" };
  const res = await post(who, "/affiliate-signup", { intent: "signup", password: PASSWORD, ...fields });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  const verify = await raw({ path: await mailLink(fields.email, /verify/i), ip });
  expect(verify.status).toBe(302);
  who.cookie = cookieHeader(verify.setCookies);
  expect((await get(who, "/affiliate-dashboard")).status).toBe(200);
  return who;
}

/** The operator of /admin, signed in with password and TOTP code (docs/decisions/0073-two-factor.md). */
async function operator(): Promise<Identity> {
  const who: Identity = { name: "operator", ip: freshIp(), cookie: await operatorCookie() };
  expect((await get(who, "/admin")).status).toBe(200);
  return who;
}

/** Starts a checkout through POST /api/checkout and returns its session id (from the hosted page URL). */
async function checkout(who: Identity, body: object): Promise<string> {
  const res = await post(who, "/api/checkout", body, false);
  expect(res.status, res.text).toBe(200);
  const sessionId = res.json<{ url: string }>().url.match(/\/checkout\/local\/([A-Za-z0-9_-]+)$/)?.[1];
  expect(sessionId).toBeTruthy();
  return sessionId!;
}

/** Pays on the local provider's hosted page with the test card that succeeds. */
async function pay(who: Identity, sessionId: string) {
  const res = await post(who, `/checkout/local/${sessionId}`, { card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  expect(res.status, res.text.slice(0, 300)).toBe(302);
  return res.headers.location!;
}

// ---------------------------------------------------------------------------------------------

/** How an answer differs from what was wanted, or null when it is the one. */
function mismatch(res: RawResponse, want: Want, kind: "page" | "data"): string | null {
  const got = kind === "page" ? `${res.status} ${res.headers.location ?? ""}` : `${res.status} ${dataRedirect(res.text) ?? ""}`;
  if (typeof want === "number") return res.status === want ? null : `wanted ${want}, got ${got}`;
  const target = kind === "page" ? res.headers.location : dataRedirect(res.text);
  const ok =
    res.status === (kind === "page" ? 302 : 202) &&
    (want === "auth" ? (target ?? "").startsWith("/auth?next=%2F") : target === want.slice(2));
  return ok ? null : `wanted a redirect ${want === "auth" ? "to sign-in" : want}, got ${got}`;
}

/** Page, `.data`, `.data` with each loader of the match alone, and the index spelling `/x/_.data`. */
function requestsOf(probe: Probe): { path: string; kind: "page" | "data"; alone?: string }[] {
  const ids = matchedRouteIds(probe.url);
  const out: { path: string; kind: "page" | "data"; alone?: string }[] = [
    { path: probe.url, kind: "page" },
    { path: dataUrl(probe.url), kind: "data" },
    ...ids.map((id) => ({ path: dataUrl(probe.url, [id]), kind: "data" as const, alone: id })),
  ];
  const { pathname, search } = new URL(probe.url, "http://x");
  const leaf = APP_ROUTES.find((r) => r.id === ids.at(-1));
  if (leaf?.index && pathname !== "/") out.push({ path: `${pathname}/_.data${search}`, kind: "data" });
  return out;
}

const leafEntry = (id: string) => SWEEP[APP_ROUTES.find((r) => r.id === id)!.file];

/** What one request must answer `viewer`: the probe's want, or a layout's own when it runs alone. */
function wantFor(probe: Probe, req: { kind: "page" | "data"; alone?: string }, viewer: Viewer): Want {
  if (req.alone && req.alone !== matchedRouteIds(probe.url).at(-1)) {
    if (req.alone === "root") return 200;
    const entry = leafEntry(req.alone);
    if (!entry || !("layout" in entry)) throw new Error(`${req.alone} has children but no layout entry`);
    return (viewer === "C" ? entry.layout.C : undefined) ?? (viewer === "anon" ? entry.layout.anon : entry.layout.B);
  }
  const data = req.kind === "data" ? probe.data?.[viewer] : undefined;
  if (data) return data;
  if (viewer === "anon") return probe.anon;
  if (viewer === "C") return probe.C ?? probe.B;
  return probe.B;
}

/** One row of the own-data check: a dashboard route's loader data, reduced to what must be empty. */
function check<T>(route: string, url: string, pick: (d: T) => unknown, fresh: unknown) {
  return { routeId: `routes/_dashboard/${route}`, url, pick: pick as (d: unknown) => unknown, fresh };
}

type AffiliateData = { stats: unknown; ledger: unknown };
const affiliateStats = (d: AffiliateData) => [d.stats, d.ledger];

test("every route of app/routes.ts is swept or listed as public with a reason", () => {
  const files = APP_ROUTES.map((r) => r.file);
  const missing = files.filter((f) => !(f in SWEEP));
  expect(missing, "routes the sweep neither checks nor lists as public: add them to SWEEP").toEqual([]);
  const stale = Object.keys(SWEEP).filter((f) => !files.includes(f));
  expect(stale, "SWEEP entries for routes that no longer exist").toEqual([]);
  // Ids of the right shape; the sweep itself substitutes A's real ones.
  const sample: Ids = {
    sessions: {
      app: "cs_local_a",
      package: "cs_local_b",
      plan: "cs_local_c",
      scaling: "cs_local_d",
      addons: "cs_local_e",
      distributor: "cs_local_f",
      unpaid: "cs_local_g",
    },
    orders: ["00000000-0000-4000-8000-000000000000"],
    payments: [1],
    affiliateUsername: "someone",
    leadId: "00000000-0000-4000-8000-000000000001",
  };
  for (const route of APP_ROUTES) {
    const entry = SWEEP[route.file]!;
    if ("layout" in entry) expect(route.layout, `${route.file} is listed as a layout`).toBe(true);
    else expect(route.layout, `${route.file} has children: list what its loader answers alone`).toBe(false);
    if ("public" in entry) expect(entry.public.length, route.file).toBeGreaterThan(20);
    if (!("probes" in entry)) continue;
    // Each probe really reaches the route it is listed under.
    const urls = entry.probes(sample).map((p) => p.url);
    expect(urls.length, route.file).toBeGreaterThan(0);
    for (const url of urls) expect(matchedRouteIds(url).at(-1), url).toBe(route.id);
  }
});

test.describe("access control sweep: no one reads or changes another's rows", () => {
  let A: Identity;
  let affA: Identity;
  let B: Identity;
  let C: Identity;
  let ops: Identity;
  let ids: Ids;
  /** Every unique string of A's, affiliate A's and the lead's, with a label for messages. */
  const markers = new Map<string, string>();
  const probes: { file: string; probe: Probe }[] = [];
  const mark = (label: string, value: string) => {
    markers.set(value, label);
    return value;
  };

  test.beforeAll(async ({ browser }) => {
    // One customer, two affiliates, a lead, a dozen payments: more than the default minute on 2 busy cores.
    test.setTimeout(SWEEP_TIMEOUT);
    const tag = `${Date.now().toString(36)}${process.pid.toString(36)}`;

    // Affiliate A, who referred customer A; affiliate C, another affiliate with nothing of their own.
    const affFields = {
      firstName: mark("affiliate A first name", `Afffirst${tag}`),
      lastName: mark("affiliate A last name", `Afflast${tag}`),
      email: mark("affiliate A email", uniqueEmail(`sweep-aff-a-${tag}`)),
      businessName: mark("affiliate A business", `Affbiz${tag}`),
      username: mark("affiliate A username", `swp-${tag}`.slice(0, 30)),
    };
    affA = await affiliate(affFields);
    C = await affiliate({
      firstName: "Other",
      lastName: "Affiliate",
      email: uniqueEmail("sweep-aff-c"),
      businessName: "",
      username: `swc-${tag}`.slice(0, 30),
    });
    C.name = "affiliate C";

    // Customer A: signs up through affiliate A's link, with unique names.
    A = await customer(
      browser,
      {
        email: mark("A email", uniqueEmail(`sweep-a-${tag}`)),
        firstName: mark("A first name", `Custfirst${tag}`),
        lastName: mark("A last name", `Custlast${tag}`),
        companyName: mark("A company", `Custco${tag}`),
      },
      affFields.username,
    );
    A.name = "customer A";
    B = await customer(browser, { email: uniqueEmail("sweep-b") });
    B.name = "customer B";
    ops = await operator();

    // A's trial, onboarding, ticket and settings.
    expect((await post(A, "/dashboard", { intent: "start-trial", plan: "starter" })).status).toBe(302);
    expect((await post(A, "/dashboard/onboarding", { intent: "complete", step: "connect-tools" })).status).toBe(200);
    expect((await post(A, "/dashboard/onboarding", { intent: "schedule-call" })).status).toBe(200);
    const ticket = await post(A, "/dashboard/support", {
      subject: mark("A ticket subject", `Ticketsubject ${tag}`),
      category: "Billing",
      message: mark("A ticket message", `Ticket message body ${tag} please help`),
    });
    expect(ticket.status).toBe(200);
    const flipped = {
      emailUpdates: !DEFAULT_SETTINGS.emailUpdates,
      productNews: !DEFAULT_SETTINGS.productNews,
      smsAlerts: !DEFAULT_SETTINGS.smsAlerts,
    };
    const settingsForm: Record<string, string> = {
      intent: "preferences",
      sidebar: DEFAULT_SETTINGS.sidebarCollapsed ? "expanded" : "collapsed",
    };
    for (const [k, v] of Object.entries(flipped)) if (v) settingsForm[k] = "on";
    expect((await post(A, "/dashboard/settings", settingsForm)).status).toBe(200);

    // A's orders, paid with the local provider's test card; one left unpaid.
    const sessions = {} as Record<OrderKind, string>;
    const addonIds = ["email-campaign-builder", "seo-optimizer", "advanced-analytics"];
    expect(addonIds.every((id) => ADDONS.some((a) => a.id === id && a.isActive))).toBe(true);
    const bodies: Record<OrderKind, object> = {
      // Monthly: paid at checkout into its free trial, so it is A's now (a one-time build on its free
      // trial is held until the trial ends; the package below is one).
      app: { kind: "app", appId: 7, tab: "monthly" },
      package: { kind: "package", planId: QUICK_PICK_PLANS[0]!.id, mode: "one-time", rush: true },
      plan: { kind: "plan", planType: "pro" },
      scaling: { kind: "scaling", tierIndex: 3 },
      addons: { kind: "addons", addonIds },
      distributor: {
        kind: "distributor",
        email: mark("A distributor email", uniqueEmail(`sweep-dist-${tag}`)),
        fullName: mark("A distributor name", `Distname ${tag}`),
        businessName: mark("A distributor business", `Distbiz ${tag}`),
      },
      unpaid: { kind: "app", appId: 8, tab: "standard" },
    };
    for (const [kind, body] of Object.entries(bodies) as [OrderKind, object][]) {
      // A subscriber's tier would be a plan change (no checkout of its own): A's plan ends first.
      if (kind === "scaling") await cancelPlanAtPeriodEnd(A);
      sessions[kind] = mark(`A ${kind} session id`, await checkout(A, body));
      if (kind !== "unpaid") await pay(A, sessions[kind]);
    }

    // A asks for a callback (the lead is theirs; only operators may see leads).
    const lead = await post(
      A,
      "/api/callback",
      {
        firstName: mark("lead first name", `Leadfirst${tag}`),
        lastName: mark("lead last name", `Leadlast${tag}`),
        email: mark("lead email", uniqueEmail(`sweep-lead-${tag}`)),
        phone: "+1 555 0100",
        company: `Leadco${tag}`,
        projectType: "Web Application",
        budget: "$5,000 - $10,000",
        timeframe: "ASAP",
        message: `Lead message ${tag}`,
        preferredTime: "Any time",
      },
      false,
    );
    expect(lead.status, lead.text).toBe(200);

    // Ids and timestamps the owners' own pages show, learned from their data requests.
    const session = (await get(A, "/api/auth/get-session")).json<{ user: { id: string } }>();
    mark("A user id", session.user.id);
    const affSession = (await get(affA, "/api/auth/get-session")).json<{ user: { id: string } }>();
    mark("affiliate A user id", affSession.user.id);
    const billing = await loaderData<{
      history: {
        id: string;
        status: string;
        isSubscription: boolean;
        trialDays: number;
        setupFee: number;
        receipts: { id: number }[];
      }[];
      subscription: { currentPeriodEnd: string | null };
    }>(A, "/dashboard/billing", "routes/_dashboard/billing");
    const orderIds = billing.history.map((h) => h.id);
    expect(orderIds).toHaveLength(7);
    // Every paid order has its receipt, but for a subscription in its free trial with nothing due
    // today (charged when the trial ends) and a one-time build on its free trial (held, not paid).
    const paymentIds = billing.history.flatMap((h) => h.receipts.map((r) => r.id));
    const inFreeTrial = (h: (typeof billing.history)[number]) => h.isSubscription && h.trialDays > 0 && h.setupFee === 0;
    expect(billing.history.filter((h) => h.status === "paid" && h.receipts.length === 0 && !inFreeTrial(h))).toEqual([]);
    expect(paymentIds.length).toBeGreaterThanOrEqual(4);
    orderIds.forEach((id, i) => mark(`A order id ${i + 1}`, id));
    expect(billing.subscription.currentPeriodEnd).toBeTruthy();
    mark("A subscription period end", billing.subscription.currentPeriodEnd!);
    const overview = await loaderData<{ trial: { started: boolean; activatedAt: number; endsAt: number } }>(
      A,
      "/dashboard",
      "routes/_dashboard/overview",
    );
    expect(overview.trial.started).toBe(true);
    mark("A trial start", String(overview.trial.activatedAt));
    mark("A trial end", String(overview.trial.endsAt));
    const onboarding = await loaderData<{ callAt: number | null }>(A, "/dashboard/onboarding", "routes/_dashboard/onboarding");
    expect(onboarding.callAt).toBeTruthy();
    mark("A onboarding call time", String(onboarding.callAt));
    const affDash = await loaderData<{ ledger: { createdAt: string }[]; stats: { payingCustomers: number } }>(
      affA,
      "/affiliate-dashboard",
      "routes/affiliate-dashboard",
    );
    // Every payment of A's earned affiliate A a commission.
    expect(affDash.stats.payingCustomers).toBe(1);
    expect(affDash.ledger.length).toBeGreaterThan(0);
    affDash.ledger.forEach((l, i) => mark(`affiliate A ledger entry ${i + 1}`, l.createdAt));
    const admin = await loaderData<{ rows: { id: string; email: string }[] }>(ops, "/admin/leads?size=100", "routes/admin/table");
    const leadRow = admin.rows.find((l) => markers.get(l.email) === "lead email");
    expect(leadRow, "the operator sees A's lead").toBeTruthy();
    mark("lead id", leadRow!.id);

    ids = { sessions, orders: orderIds, payments: paymentIds, affiliateUsername: affFields.username, leadId: leadRow!.id };
    for (const [file, entry] of Object.entries(SWEEP)) {
      if ("probes" in entry) for (const probe of entry.probes(ids)) probes.push({ file, probe });
    }
  });

  test("the owners see every marker: the sweep's absent markers are real data", async () => {
    test.setTimeout(SWEEP_TIMEOUT);
    const seen = new Set<string>();
    for (const who of [A, affA, ops]) {
      for (const { probe } of probes) {
        for (const req of requestsOf(probe)) {
          const res = await get(who, req.path);
          expect(res.status, `${who.name} ${req.path}`).toBeLessThan(500);
          for (const m of markers.keys()) if (res.text.includes(m)) seen.add(m);
        }
      }
    }
    const unseen = [...markers].filter(([m]) => !seen.has(m)).map(([m, label]) => `${label}: ${m}`);
    expect(unseen, "markers no owner's page shows (the sweep could not see them leak)").toEqual([]);
  });

  for (const viewer of ["anon", "B", "C"] as const) {
    test(`${viewer === "anon" ? "a signed-out visitor" : viewer === "B" ? "customer B" : "affiliate C"} gets the expected status and none of A's data on every route`, async () => {
      test.setTimeout(SWEEP_TIMEOUT);
      const who = viewer === "anon" ? anonymous : viewer === "B" ? B : C;
      // Every wrong status and every marker found, so one run reports all of them.
      const problems: string[] = [];
      let requests = 0;
      for (const { probe } of probes) {
        for (const req of requestsOf(probe)) {
          const res = await get(who, req.path);
          requests += 1;
          const wrong = mismatch(res, wantFor(probe, req, viewer), req.kind);
          if (wrong) problems.push(`${req.path}: ${wrong}`);
          // A data redirect to sign-in carries the requested URL (`next=`): ids the visitor typed, no more.
          const target = req.kind === "data" ? dataRedirect(res.text) : null;
          let text = target ? res.text.replace(JSON.stringify(target), "") : res.text;
          // A page repeats its own URL (its forms post back to it): what the visitor typed, not A's data.
          if (req.kind === "page") text = text.replaceAll(req.path.replaceAll("&", "&amp;"), "").replaceAll(req.path, "");
          for (const [m, label] of markers) {
            if (target?.includes(m) && !req.path.includes(m)) problems.push(`${req.path} redirects with ${label}`);
            if (!text.includes(m)) continue;
            if (probe.echo && req.path.includes(m)) continue;
            problems.push(`${req.path} (${res.status}) shows ${label}`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(requests).toBeGreaterThan(200);
    });
  }

  test("B's and C's own pages list nothing of anyone else's (A's list the same things)", async () => {
    // Route, page URL, what its loader data says, and what a new account has.
    const checks = [
      check<{ trial: { started: boolean } }>("overview", "/dashboard", (d) => d.trial.started, false),
      check<{ history: unknown[]; subscription: { active: boolean } }>(
        "billing",
        "/dashboard/billing",
        (d) => [d.history.length, d.subscription.active],
        [0, false],
      ),
      check<{ current: { active: boolean } }>("scaling", "/dashboard/scaling", (d) => d.current.active, false),
      check<{ owned: string[] }>("addons", "/dashboard/addons", (d) => d.owned, []),
      check<{ steps: { id: string; completed: boolean }[]; callAt: number | null }>(
        "onboarding",
        "/dashboard/onboarding",
        (d) => [d.steps.filter((step) => step.completed).map((step) => step.id), d.callAt],
        [["create-account"], null],
      ),
      check<{ tickets: unknown[] }>("support", "/dashboard/support", (d) => d.tickets, []),
      check<{ apps: unknown[] }>("automation", "/dashboard/automation", (d) => d.apps, []),
      check<{ settings: unknown }>("settings", "/dashboard/settings", (d) => d.settings, DEFAULT_SETTINGS),
      check<{ ticketsOpened: number }>("analytics", "/dashboard/analytics", (d) => d.ticketsOpened, 0),
    ];
    for (const { routeId, url, pick, fresh } of checks) {
      for (const who of [B, C]) expect.soft(pick(await loaderData(who, url, routeId)), `${who.name} ${url}`).toEqual(fresh);
      expect.soft(pick(await loaderData(A, url, routeId)), `A ${url}`).not.toEqual(fresh);
    }
    // The return pages of A's checkouts: the order for A only (its item and amount are not unique
    // strings, so this is checked on the data rather than by markers). B and C find no such order;
    // a visitor is asked to sign in.
    for (const [url, routeId] of [
      ...Object.values(ids.sessions).map((id) => [`/payment-success?session_id=${id}`, "routes/_marketing/payment-success"]),
      [`/distributor-success?session_id=${ids.sessions.distributor}`, "routes/_marketing/distributor-success"],
    ] as const) {
      for (const who of [B, C])
        expect
          .soft(await returnData(who, url, routeId), `${who.name} ${url}`)
          .toEqual({ status: 404, data: { view: "not-found" } });
      expect
        .soft(await returnData(anonymous, url, routeId), `anonymous ${url}`)
        .toEqual({ status: 200, data: { view: "sign-in", signInHref: `/auth?next=${encodeURIComponent(url)}` } });
    }
    for (const sessionId of Object.values(ids.sessions)) {
      const url = `/payment-success?session_id=${sessionId}`;
      const order = (await loaderData<{ order?: unknown }>(A, url, "routes/_marketing/payment-success")).order;
      expect.soft(order, `A ${url}`).toBeTruthy();
    }
    expect
      .soft(
        await loaderData(
          A,
          `/distributor-success?session_id=${ids.sessions.distributor}`,
          "routes/_marketing/distributor-success",
        ),
      )
      .toMatchObject({ view: "paid", order: { fullName: expect.stringContaining("Distname") } });

    const none = [{ clicks: 0, signups: 0, payingCustomers: 0, pending: 0, paid: 0 }, []];
    expect
      .soft(affiliateStats(await loaderData<AffiliateData>(C, "/affiliate-dashboard", "routes/affiliate-dashboard")))
      .toEqual(none);
    expect
      .soft(affiliateStats(await loaderData<AffiliateData>(affA, "/affiliate-dashboard", "routes/affiliate-dashboard")))
      .not.toEqual(none);
  });

  test("actions that take A's ids are refused for B, C and visitors, and change nothing of A's", async () => {
    const unpaid = ids.sessions.unpaid;
    const orderStatus = async () =>
      (
        await loaderData<{ order: { status: string } | null }>(
          A,
          `/payment-success?session_id=${unpaid}`,
          "routes/_marketing/payment-success",
        )
      ).order?.status;
    expect.soft(await orderStatus()).toBe("Pending");
    // The owner can open the unpaid checkout: the 404s below are about who asks.
    expect.soft((await get(A, `/checkout/local/${unpaid}`)).status).toBe(200);

    for (const who of [B, C, anonymous]) {
      for (const path of [`/checkout/local/${unpaid}`, `/checkout/local/${unpaid}.data`]) {
        for (const n of ["4242 4242 4242 4242", "4000 0000 0000 0002"]) {
          const res = await post(who, path, { card: n, expiry: "12/34", cvc: "123" });
          const where = `${who.name} POST ${path} ${n}`;
          if (who === anonymous) {
            expect.soft(res.status, where).toBe(path.endsWith(".data") ? 202 : 302);
            expect.soft(path.endsWith(".data") ? dataRedirect(res.text) : res.headers.location, where).toMatch(/^\/auth\?next=/);
          } else expect.soft(res.status, where).toBe(404);
        }
      }
      // Re-sync of A's checkout session: not theirs.
      const sync = await post(who, "/api/billing/sync", { sessionId: ids.sessions.plan }, false);
      // A JSON 401, not a redirect: the billing page's fetch would follow one and read the sign-in page as a 200.
      if (who === anonymous) expect.soft([sync.status, sync.json()]).toEqual([401, { error: "Authentication required" }]);
      else expect.soft([sync.status, sync.json()], `${who.name} sync`).toEqual([404, { error: "Order not found" }]);
      // The operator's retry of A's lead.
      const retry = await post(who, "/admin", { intent: "retry-lead", leadId: ids.leadId });
      expect.soft([retry.status, retry.headers.location], `${who.name} retry`).toEqual([404, undefined]);
      const emailRetry = await post(who, "/admin/emails/1", { intent: "retry-email" });
      expect.soft([emailRetry.status, emailRetry.headers.location], `${who.name} email retry`).toEqual([404, undefined]);
      // Cancelling a subscription of A's by its order id: not found (A's are not theirs to cancel).
      const cancels = [];
      for (const id of ids.orders)
        cancels.push(await post(who, "/dashboard/billing/manage", { intent: "cancel", ref: `order:${id}` }));
      for (const cancel of cancels) {
        if (who === anonymous) expect.soft(cancel.status).toBe(302);
        else expect.soft(cancel.status, `${who.name} cancel`).toBe(404);
      }
      // The no-JavaScript checkout forms (ADR 0016) send a visitor to sign in, with the page's reason,
      // before anything is priced (for B and C they would start checkouts of their own, not A's).
      if (who === anonymous) {
        for (const [path, body, location] of [
          ["/dashboard/billing", { intent: "checkout", planType: "pro" }, "/auth?next=%2Fdashboard%2Fbilling"],
          ["/dashboard/addons", { addonIds: "seo-optimizer" }, "/auth?next=%2Fdashboard%2Faddons&reason=addons"],
          ["/dashboard/scaling", { tierIndex: "3" }, "/auth?next=%2Fdashboard%2Fscaling&reason=upgrade"],
        ] as const) {
          const res = await post(who, path, body);
          expect.soft([res.status, res.headers.location], `visitor POST ${path}`).toEqual([302, location]);
        }
      }
      // The billing portal is the caller's own (the local provider's is the site's Manage Billing page).
      const portal = await post(who, "/api/billing/portal", {}, false);
      expect.soft(portal.status, `${who.name} portal`).toBe(who === anonymous ? 401 : 200);
      for (const res of [sync, retry, ...cancels, portal]) for (const m of markers.keys()) expect.soft(res.text).not.toContain(m);
    }

    // Nothing of A's changed.
    expect.soft(await orderStatus()).toBe("Pending");
    const sub = await loaderData<{ subscription: { active: boolean; cancelAtPeriodEnd: boolean } }>(
      A,
      "/dashboard/billing",
      "routes/_dashboard/billing",
    );
    expect.soft([sub.subscription.active, sub.subscription.cancelAtPeriodEnd]).toEqual([true, false]);
    const subscriptions = await loaderData<{ subscriptions: { state: string }[] }>(
      A,
      "/dashboard/billing/manage",
      "routes/_dashboard/billing.manage",
    );
    expect.soft(subscriptions.subscriptions.map((s) => s.state)).toEqual(["active", "active", "active", "active"]);
    // And the owner's own sync of the same session works (so the 404s were about ownership).
    const own = await post(A, "/api/billing/sync", { sessionId: ids.sessions.plan }, false);
    expect.soft([own.status, own.json<{ order: { status: string } }>().order.status]).toEqual([200, "paid"]);
  });
});
