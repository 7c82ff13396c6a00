import { and, count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { action as appsAction } from "~/routes/_marketing/apps";
import { action as supportAction } from "~/routes/_dashboard/support";
import { action as checkoutAction } from "~/routes/api/checkout";
import { action as syncAction } from "~/routes/api/billing.sync";
import { action as visitAction } from "~/routes/api/dashboard.visit";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { openDatabase, setDatabase, type Db } from "~/server/db/client.server";
import { activityEvents, limitCounters, orders, supportTickets } from "~/server/db/schema";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { RATE_LIMITS, takeAttempt } from "~/server/limits/rate-limits.server";
import { startTrial } from "~/server/trial/trial.server";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const APP = { kind: "app", appId: 7, tab: "base" } as const;
const TICKET = { subject: "Cannot connect CRM", category: "Technical", message: "The CRM link fails." };

const headers = (cookie: string, ip: string, type: string) => ({
  cookie,
  origin: SITE,
  "content-type": type,
  [CLIENT_IP_HEADER]: ip,
});
const postJson = (path: string, cookie: string, ip: string, body: unknown) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: headers(cookie, ip, "application/json"),
    body: JSON.stringify(body),
  });
const postForm = (path: string, cookie: string, ip: string, form: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: headers(cookie, ip, "application/x-www-form-urlencoded"),
    body: new URLSearchParams(form),
  });

const checkout = (who: { cookie: string }, ip: string) =>
  routeAnswer(checkoutAction(routeArgs(postJson("/api/checkout", who.cookie, ip, APP))));

/**
 * Per-account and per-address limits on checkout, the billing re-sync, dashboard visits and support
 * tickets, called as React Router calls the routes, with the client address the
 * HTTP server writes on every request.
 */
describe(`request limits (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let sessionsCreated = 0;

  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "limits",
  );

  const ordersOf = async (userId: string) =>
    Number((await database.db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)))[0]!.n);

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
    // The local provider, counting the sessions it is asked for.
    setCheckoutProvider({
      ...localProvider,
      createSession: (input) => {
        sessionsCreated += 1;
        return localProvider.createSession(input);
      },
    });
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });
  beforeEach(async () => {
    await database.db.delete(limitCounters);
    sessionsCreated = 0;
    // The limits read the clock: held still, a slow machine cannot see a window end mid-test.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the 11th checkout of an account in a minute answers 429 without an order or a provider call", async () => {
    const buyer = await customer();
    for (let i = 0; i < 10; i++) expect((await checkout(buyer, `198.51.100.${i + 1}`)).status).toBe(200);
    expect(sessionsCreated).toBe(10);
    expect(await ordersOf(buyer.id)).toBe(10);

    // From yet another address: the account's limit holds whatever address it comes from.
    const refused = await checkout(buyer, "198.51.100.99");
    expect(refused.status).toBe(429);
    const wait = /^Too many requests\. Please try again in (\d+ seconds?|1 minute)\.$/;
    expect(refused.body).toEqual({
      code: "rate_limited",
      message: expect.stringMatching(wait),
      error: expect.stringMatching(wait),
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(sessionsCreated).toBe(10);
    expect(await ordersOf(buyer.id)).toBe(10);

    // Another account is not affected.
    expect((await checkout(await customer(), "198.51.100.99")).status).toBe(200);
  });

  it("the no-JavaScript checkout forms count against the same limit, and show the message", async () => {
    const buyer = await customer();
    for (let i = 0; i < 5; i++) expect((await checkout(buyer, "192.0.2.10")).status).toBe(200);
    const form = () =>
      routeAnswer(appsAction(routeArgs(postForm("/apps", buyer.cookie, "192.0.2.10", { appId: "7", tab: "base" }))));
    for (let i = 0; i < 5; i++) expect((await form()).status).toBe(302);
    const refused = await form();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: "rate_limited",
      status: 429,
      error: expect.stringMatching(/^Too many requests/),
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await checkout(buyer, "192.0.2.10")).status).toBe(429);
    expect(sessionsCreated).toBe(10);
    expect(await ordersOf(buyer.id)).toBe(10);
  });

  it("one address is limited across accounts: 60 checkouts a minute, whoever is signed in", async () => {
    const ip = "203.0.113.30";
    const perAccount = RATE_LIMITS.checkout.perAccount[0].max;
    const perAddress = RATE_LIMITS.checkout.perAddress[0].max;
    expect(perAddress % perAccount).toBe(0);
    for (let a = 0; a < perAddress / perAccount; a++) {
      const buyer = await customer();
      for (let i = 0; i < perAccount; i++) expect((await checkout(buyer, ip)).status).toBe(200);
    }
    const next = await customer();
    expect((await checkout(next, ip)).status).toBe(429);
    expect(await ordersOf(next.id)).toBe(0);
    // The same account from its own address is fine.
    expect((await checkout(next, "203.0.113.31")).status).toBe(200);
    expect(sessionsCreated).toBe(perAddress + 1);
  });

  it("concurrent checkouts cannot slip past the limit: exactly 10 of 16 at once are served", async () => {
    const buyer = await customer();
    const statuses = (await Promise.all(Array.from({ length: 16 }, (_, i) => checkout(buyer, `198.51.100.${120 + i}`)))).map(
      (r) => r.status,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect(sessionsCreated).toBe(10);
    expect(await ordersOf(buyer.id)).toBe(10);
  });

  it("support: the 6th ticket in a minute is refused in the form (429) and not stored", async () => {
    const { id, cookie } = await customer();
    expect((await startTrial(database.db, id, "starter")).ok).toBe(true);
    const submit = (i: number) =>
      routeAnswer(
        supportAction(routeArgs(postForm("/dashboard/support", cookie, "192.0.2.20", { ...TICKET, subject: `Ticket ${i}` }))),
      );
    for (let i = 0; i < 5; i++) expect((await submit(i)).status).toBe(200);
    const refused = await submit(5);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      ok: false,
      errors: { form: expect.stringMatching(/^Too many requests\. Please try again in (\d+ seconds?|1 minute)\.$/) },
      values: { subject: "Ticket 5", message: TICKET.message },
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const stored = await database.db.select({ n: count() }).from(supportTickets).where(eq(supportTickets.userId, id));
    expect(Number(stored[0]!.n)).toBe(5);
  });

  it("support: invalid forms do not use up the limit", async () => {
    const { id, cookie } = await customer();
    await startTrial(database.db, id, "starter");
    const submit = (form: Record<string, string>) =>
      routeAnswer(supportAction(routeArgs(postForm("/dashboard/support", cookie, "192.0.2.21", form))));
    for (let i = 0; i < 8; i++) expect((await submit({ ...TICKET, subject: "x" })).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await submit(TICKET)).status).toBe(200);
  });

  it("dashboard visits: past 60 a minute a visit answers 429 and is not recorded", async () => {
    const { id, cookie } = await customer();
    const visit = () =>
      routeAnswer(visitAction(routeArgs(postJson("/api/dashboard/visit", cookie, "192.0.2.30", { path: "/dashboard" }))));
    for (let i = 0; i < 60; i++) expect((await visit()).status).toBe(200);
    const refused = await visit();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringMatching(/^Too many requests/) });
    const visits = await database.db
      .select({ n: count() })
      .from(activityEvents)
      .where(and(eq(activityEvents.userId, id), eq(activityEvents.kind, "dashboard_visit")));
    expect(Number(visits[0]!.n)).toBe(60);
  });

  it("billing re-sync: the 31st in a minute answers 429", async () => {
    const { cookie } = await customer();
    const sync = () => routeAnswer(syncAction(routeArgs(postJson("/api/billing/sync", cookie, "192.0.2.40", {}))));
    for (let i = 0; i < 30; i++) expect((await sync()).status).toBe(200);
    const refused = await sync();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("a window that has ended lets the account in again; the hourly window still counts", async () => {
    const subject = { userId: "window-user", ip: "198.51.100.200" };
    const t0 = Date.now();
    const take = (at: number) => takeAttempt(database.db, RATE_LIMITS.checkout, subject, at);
    for (let i = 0; i < 10; i++) expect(await take(t0)).toEqual({ allowed: true });
    expect(await take(t0 + 1000)).toEqual({ allowed: false, retryAfterSeconds: 59 });
    // A minute later, 10 a minute again, until the hour's 60 (the refused attempt counted in it too).
    let allowed = 10;
    for (let minute = 1; minute <= 6; minute++) {
      for (let i = 0; i < 10; i++) if ((await take(t0 + minute * 60_000)).allowed) allowed += 1;
    }
    expect(allowed).toBe(59);
    const late = await take(t0 + 6 * 60_000 + 1);
    expect(late).toMatchObject({ allowed: false });
    expect(late.allowed === false && late.retryAfterSeconds).toBe(3600 - 6 * 60);
  });

  it.skipIf(engine !== "postgres")("two app instances on one database share the counters", async () => {
    const second = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: "unused" });
    try {
      const instances: Db[] = [database.db, second.db];
      const subject = { userId: "two-instances", ip: "198.51.100.201" };
      const decisions = [];
      for (let i = 0; i < 11; i++) decisions.push(await takeAttempt(instances[i % 2]!, RATE_LIMITS.checkout, subject));
      expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
      expect(decisions[10]).toMatchObject({ allowed: false });
    } finally {
      await second.close();
    }
  });
});
