import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BUDGETS, MARKETING_CONSENT_TEXT, PREFERRED_TIMES, PROJECT_TYPES, TIMEFRAMES } from "~/catalogue/callback";
import { queryRows, setDatabase } from "~/server/db/client.server";
import { limitCounters, leads, rateLimit } from "~/server/db/schema";
import { createAuth } from "~/server/auth/auth.server";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { LEAD_DELIVERY_QUEUE_OPTIONS, startJobs, stopJobs } from "~/server/jobs/queue.server";
import { handleCallbackRequest, MAX_CALLBACK_BODY_BYTES } from "~/server/leads/http.server";
import { LEAD_LIMITS, retryLead, submitLead } from "~/server/leads/leads.server";
import { mailchimpConfigFromEnv, setMailchimpConfig } from "~/server/leads/mailchimp.server";
import { parseEnv } from "~/server/env.server";
import { engine, freshDatabase } from "./support/db";

process.env.LOG_LEVEL ??= "error";

const valid = (n: number | string, extra: Record<string, unknown> = {}) => ({
  firstName: "Ana",
  lastName: "Lima",
  email: `ana-${n}@example.com`,
  phone: "+1 555 0100",
  company: "Bright Smile Dental",
  projectType: PROJECT_TYPES[4],
  budget: BUDGETS[1],
  timeframe: TIMEFRAMES[2],
  message: "Book appointments from our website chat.",
  preferredTime: PREFERRED_TIMES[0],
  ...extra,
});

let ipSeq = 0;
const freshIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const jobsFor = async (db: Awaited<ReturnType<typeof freshDatabase>>["db"], leadId: string) =>
  queryRows<{ state: string }>(
    db,
    sql`select state::text as state from pgboss.job where name = 'deliver-lead' and data->>'leadId' = ${leadId}`,
  );

describe(`lead submission (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    // A configured list whose deliveries never run here (the worker polls rarely): only enqueueing is checked.
    setMailchimpConfig({ apiKey: "k-us1", listId: "l", baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 });
    await startJobs(database, { pollingIntervalSeconds: 600, schedules: false });
  });
  afterAll(async () => {
    await stopJobs();
    setMailchimpConfig(undefined);
    setDatabase(undefined);
    await database.cleanup();
  });
  beforeEach(async () => {
    await database.db.delete(limitCounters);
  });

  it("stores the lead and its delivery job together, with every field of spec section 3", async () => {
    const result = await submitLead(database.db, valid("store", { email: "  Ana-Store@Example.COM " }), { ip: freshIp() });
    expect(result).toMatchObject({ status: "accepted", delivery: "pending" });
    const leadId = result.status === "accepted" ? result.leadId! : "";
    const [row] = await database.db.select().from(leads).where(eq(leads.id, leadId));
    expect(row).toMatchObject({
      firstName: "Ana",
      lastName: "Lima",
      email: "ana-store@example.com",
      phone: "+1 555 0100",
      company: "Bright Smile Dental",
      projectType: "AI-Powered Solution",
      budget: "$10,000 - $25,000",
      timeframe: "1-3 months",
      preferredTime: "Morning (9AM-12PM)",
      source: "live-training",
      userId: null,
      deliveryStatus: "pending",
      deliveryAttempts: 0,
      marketingConsent: false,
      marketingConsentText: null,
      marketingConsentAt: null,
    });
    expect((await jobsFor(database.db, leadId)).map((j) => j.state)).toEqual(["created"]);
  });

  it("stores marketing consent with the server's own wording and the time; the lead is delivered either way", async () => {
    const now = new Date("2026-11-26T10:00:00Z");
    const stored = async (n: string, consent: unknown) => {
      const result = await submitLead(database.db, valid(n, consent === undefined ? {} : { marketingConsent: consent }), {
        ip: freshIp(),
        now,
      });
      expect(result).toMatchObject({ status: "accepted", delivery: "pending" });
      const id = result.status === "accepted" ? result.leadId! : "";
      const [row] = await database.db.select().from(leads).where(eq(leads.id, id));
      return row!;
    };
    for (const [i, ticked] of ["on", true, "true"].entries()) {
      expect(await stored(`consent-${i}`, ticked)).toMatchObject({
        marketingConsent: true,
        marketingConsentText: MARKETING_CONSENT_TEXT,
        marketingConsentAt: now,
        deliveryStatus: "pending",
      });
    }
    for (const [i, unticked] of [undefined, "", false, "false"].entries()) {
      expect(await stored(`no-consent-${i}`, unticked)).toMatchObject({
        marketingConsent: false,
        marketingConsentText: null,
        marketingConsentAt: null,
        deliveryStatus: "pending",
      });
    }
    // A value that is neither: refused, never read as consent.
    expect(
      await submitLead(database.db, valid("consent-typo", { marketingConsent: "yes please" }), { ip: freshIp() }),
    ).toMatchObject({
      status: "invalid",
    });
  });

  it("a failing transaction leaves neither the lead nor its job", async () => {
    const { enqueueLeadDelivery } = await import("~/server/jobs/queue.server");
    const id = "rolled-back-lead";
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(leads).values({ id, firstName: "X", email: "x@example.com", phone: "1", source: "test" });
        expect(await enqueueLeadDelivery(tx, id)).toBeTruthy();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await database.db.select().from(leads).where(eq(leads.id, id))).toEqual([]);
    expect(await jobsFor(database.db, id)).toEqual([]);
  });

  it("requires firstName, email and phone with 'Please fill in required fields'", async () => {
    const result = await submitLead(database.db, valid("req", { firstName: " ", phone: "" }), { ip: freshIp() });
    expect(result).toEqual({
      status: "invalid",
      error: "Please fill in required fields",
      fields: { firstName: "Required", phone: "Required" },
    });
    const missing = await submitLead(database.db, { firstName: "Ana" }, { ip: freshIp() });
    expect(missing).toMatchObject({ status: "invalid", error: "Please fill in required fields" });
    expect(Object.keys((missing as { fields: object }).fields).sort()).toEqual(["email", "phone"]);
  });

  it("refuses unknown fields, options outside the lists, long messages, bad emails and wrong types", async () => {
    const ip = freshIp();
    const cases: [Record<string, unknown>, RegExp][] = [
      [valid("a", { amount: 1 }), /Unexpected field: amount/],
      [valid("b", { budget: "$1" }), /listed options/],
      [valid("c", { projectType: "web application" }), /listed options/],
      [valid("d", { preferredTime: "Night" }), /listed options/],
      [valid("e", { timeframe: "Tomorrow" }), /listed options/],
      [valid("f", { message: "x".repeat(2001) }), /2000/],
      [valid("g", { email: "not-an-email" }), /valid email/],
      [valid("h", { email: ["a@example.com"] }), /.+/],
      [valid("i", { phone: 5550100 }), /.+/],
    ];
    for (const [body, error] of cases) {
      const result = await submitLead(database.db, body, { ip });
      expect({ body: JSON.stringify(body).slice(0, 60), status: result.status }).toMatchObject({ status: "invalid" });
      expect((result as { error: string }).error).toMatch(error);
    }
    expect(await submitLead(database.db, valid("ok", { message: "x".repeat(2000) }), { ip })).toMatchObject({
      status: "accepted",
    });
    expect(await submitLead(database.db, "nope", { ip })).toMatchObject({ status: "invalid" });
    expect(await submitLead(database.db, null, { ip })).toMatchObject({ status: "invalid" });
  });

  it("a filled honeypot answers success and stores nothing", async () => {
    const before = await database.db.$count(leads);
    const result = await submitLead(database.db, valid("bot", { website: "http://spam.example" }), { ip: freshIp() });
    expect(result).toEqual({ status: "accepted", leadId: null, delivery: "discarded" });
    expect(await database.db.$count(leads)).toBe(before);
    expect(await database.db.select().from(leads).where(eq(leads.email, "ana-bot@example.com"))).toEqual([]);
  });

  it(`limits each IP to ${LEAD_LIMITS.perIp} submissions per window`, async () => {
    const ip = freshIp();
    for (let i = 0; i < LEAD_LIMITS.perIp; i++)
      expect(await submitLead(database.db, valid(`ip-${i}`), { ip })).toMatchObject({ status: "accepted" });
    expect(await submitLead(database.db, valid("ip-over"), { ip })).toEqual({
      status: "limited",
      error: "Too many requests. Please try again later.",
    });
    // Another address is not affected; after the window the same address may send again.
    expect(await submitLead(database.db, valid("ip-other"), { ip: freshIp() })).toMatchObject({ status: "accepted" });
    const later = new Date(Date.now() + LEAD_LIMITS.ipWindowMs + 1000);
    expect(await submitLead(database.db, valid("ip-later"), { ip, now: later })).toMatchObject({ status: "accepted" });
  });

  it("counts an IPv6 client's whole /64 and every spelling of an address as one", async () => {
    // One subscriber's /64: each submission from another address in it.
    const prefix = `2001:db8:${(Date.now() % 0xffff).toString(16)}:7`;
    for (let i = 0; i < LEAD_LIMITS.perIp; i++)
      expect(await submitLead(database.db, valid(`v6-${i}`), { ip: `${prefix}::${i + 1}` })).toMatchObject({
        status: "accepted",
      });
    expect(await submitLead(database.db, valid("v6-over"), { ip: `${prefix}:ffff:ffff:ffff:ffff` })).toMatchObject({
      status: "limited",
    });
    // The next /64 is another client.
    expect(await submitLead(database.db, valid("v6-next"), { ip: `${prefix.slice(0, -1)}8::1` })).toMatchObject({
      status: "accepted",
    });
    // An IPv4 address written as IPv4-mapped IPv6 is the same client.
    const v4 = freshIp();
    for (let i = 0; i < LEAD_LIMITS.perIp; i++)
      expect(await submitLead(database.db, valid(`v4-${i}`), { ip: v4 })).toMatchObject({ status: "accepted" });
    expect(await submitLead(database.db, valid("v4-mapped"), { ip: `::ffff:${v4}` })).toMatchObject({ status: "limited" });
  });

  it("the IP limit holds when Better Auth prunes its own counters from the shared table", async () => {
    // Better Auth deletes every rate_limit row older than its longest window (60 s) whenever one of
    // its counters starts a new window; the lead counters' window is 10 minutes.
    const ip = freshIp();
    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
    for (let i = 0; i < LEAD_LIMITS.perIp; i++)
      expect(await submitLead(database.db, valid(`prune-${i}`), { ip, now: twoMinutesAgo })).toMatchObject({
        status: "accepted",
      });
    const auth = createAuth(database.db, "x".repeat(40));
    const ok = () =>
      auth.handler(new Request("http://localhost:3000/api/auth/ok", { headers: { [CLIENT_IP_HEADER]: "10.99.0.1" } }));
    expect((await ok()).status).toBe(200);
    await database.db
      .update(rateLimit)
      .set({ lastRequest: Date.now() - 61_000 })
      .where(eq(rateLimit.key, "10.99.0.1|/ok"));
    expect((await ok()).status).toBe(200); // a new window for that counter: Better Auth prunes
    expect(await submitLead(database.db, valid("prune-over"), { ip })).toMatchObject({ status: "limited" });
  });

  it("a repeat for the same email is answered success without a second delivery, then limited", async () => {
    const email = "repeat@example.com";
    const first = await submitLead(database.db, valid("r", { email }), { ip: freshIp() });
    expect(first).toMatchObject({ status: "accepted", delivery: "pending" });
    const second = await submitLead(database.db, valid("r", { email: "REPEAT@example.com", message: "Also SMS" }), {
      ip: freshIp(),
    });
    expect(second).toMatchObject({ status: "accepted", delivery: "repeat" });
    const third = await submitLead(database.db, valid("r", { email }), { ip: freshIp() });
    expect(third).toMatchObject({ status: "accepted", delivery: "repeat" });
    expect(await submitLead(database.db, valid("r", { email }), { ip: freshIp() })).toMatchObject({ status: "limited" });

    const rows = await database.db.select().from(leads).where(eq(leads.email, email));
    expect(rows.map((r) => r.deliveryStatus).sort()).toEqual(["kept", "kept", "pending"]);
    const jobs = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pgboss.job j join leads l on l.id = j.data->>'leadId' where l.email = ${email}`,
    );
    expect(jobs[0]!.n).toBe(1);
  });

  it("concurrent submissions for one email deliver once", async () => {
    const email = "race@example.com";
    const results = await Promise.all(
      Array.from({ length: 6 }, () => submitLead(database.db, valid("x", { email }), { ip: freshIp() })),
    );
    expect(results.filter((r) => r.status === "accepted" && r.delivery === "pending")).toHaveLength(1);
    expect(results.filter((r) => r.status === "accepted")).toHaveLength(LEAD_LIMITS.perEmail);
    expect(results.filter((r) => r.status === "limited")).toHaveLength(6 - LEAD_LIMITS.perEmail);
  });

  it("without a mailing list the lead is kept and no job is created; retryLead sends it once a list exists", async () => {
    const result = await submitLead(database.db, valid("kept"), { ip: freshIp(), mailchimp: null, userId: "user-1" });
    expect(result).toMatchObject({ status: "accepted", delivery: "kept" });
    const leadId = (result as { leadId: string }).leadId;
    const [row] = await database.db.select().from(leads).where(eq(leads.id, leadId));
    expect(row).toMatchObject({ deliveryStatus: "kept", userId: "user-1" });
    expect(await jobsFor(database.db, leadId)).toEqual([]);

    expect(await retryLead(database.db, leadId, null)).toBe(false);
    expect(await retryLead(database.db, "no-such-lead")).toBe(false);
    expect(await retryLead(database.db, leadId)).toBe(true);
    expect((await database.db.select().from(leads).where(eq(leads.id, leadId)))[0]!.deliveryStatus).toBe("pending");
    expect(await jobsFor(database.db, leadId)).toHaveLength(1);
    // Already pending: nothing to retry.
    expect(await retryLead(database.db, leadId)).toBe(false);
  });

  it("reads the Mailchimp base URL from the key's data centre or MAILCHIMP_API_URL", () => {
    expect(mailchimpConfigFromEnv(parseEnv({}))).toBeNull();
    expect(mailchimpConfigFromEnv(parseEnv({ MAILCHIMP_API_KEY: "abc-us21", MAILCHIMP_LIST_ID: "L1" }))).toEqual({
      apiKey: "abc-us21",
      listId: "L1",
      baseUrl: "https://us21.api.mailchimp.com",
      timeoutMs: 10_000,
    });
    expect(
      mailchimpConfigFromEnv(
        parseEnv({ MAILCHIMP_API_KEY: "abc", MAILCHIMP_LIST_ID: "L1", MAILCHIMP_API_URL: "http://127.0.0.1:1234/" }),
      )?.baseUrl,
    ).toBe("http://127.0.0.1:1234");
  });

  it("retries for at least a day with capped exponential backoff by default", () => {
    const { retryLimit, retryDelay, retryDelayMax, retryBackoff } = LEAD_DELIVERY_QUEUE_OPTIONS;
    expect(retryBackoff).toBe(true);
    // pg-boss: min(retryDelayMax, retryDelay * (2^n / 2 + 2^n / 2 * random)); the smallest total is random = 0.
    let total = 0;
    for (let n = 1; n <= retryLimit; n++) total += Math.min(retryDelayMax, (retryDelay * 2 ** Math.min(16, n)) / 2);
    expect(total).toBeGreaterThanOrEqual(24 * 60 * 60);
    expect(retryDelayMax).toBeLessThanOrEqual(60 * 60);
  });
});

const post = (body: string, type: string, ip = "192.0.2.1") =>
  handleCallbackRequest(
    new Request("http://localhost/api/callback", {
      method: "POST",
      headers: { "content-type": type, [CLIENT_IP_HEADER]: ip },
      body,
    }),
  );

describe(`POST /api/callback handler (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    setMailchimpConfig(null);
  });
  afterAll(async () => {
    setMailchimpConfig(undefined);
    setDatabase(undefined);
    await database.cleanup();
  });

  it("answers 200 to JSON and to form-encoded bodies", async () => {
    expect(await post(JSON.stringify(valid("json")), "application/json")).toEqual({ status: 200, body: { ok: true } });
    const form = new URLSearchParams({ ...valid("form"), website: "" } as Record<string, string>).toString();
    expect(await post(form, "application/x-www-form-urlencoded; charset=UTF-8")).toEqual({ status: 200, body: { ok: true } });
    expect(await database.db.$count(leads)).toBe(2);
  });

  it("answers 400 with the fields, 413 when oversize, 415 for other types, never 500", async () => {
    expect(
      await post(JSON.stringify({ firstName: "", email: "a@example.com", phone: "" }), "application/json", "192.0.2.2"),
    ).toEqual({
      status: 400,
      body: { error: "Please fill in required fields", fields: { firstName: "Required", phone: "Required" } },
    });
    expect((await post("{not json", "application/json", "192.0.2.2")).status).toBe(400);
    expect((await post("[1,2]", "application/json", "192.0.2.2")).status).toBe(400);
    expect((await post("firstName=a&firstName=b", "application/x-www-form-urlencoded", "192.0.2.2")).status).toBe(400);
    const huge = JSON.stringify(valid("big", { message: "x".repeat(MAX_CALLBACK_BODY_BYTES) }));
    expect(await post(huge, "application/json", "192.0.2.2")).toEqual({ status: 413, body: { error: "Request body too large" } });
    expect((await post("hello", "text/plain", "192.0.2.2")).status).toBe(415);
    expect(
      (await post(JSON.stringify(valid("inj", { firstName: "'); drop table leads;--" })), "application/json", "192.0.2.2"))
        .status,
    ).toBe(200);
    expect(await database.db.$count(leads)).toBeGreaterThan(0);
  });

  it("answers 429 with the spec's message past the per-IP limit", async () => {
    const ip = "192.0.2.99";
    for (let i = 0; i < LEAD_LIMITS.perIp; i++)
      expect((await post(JSON.stringify(valid(`lim-${i}`)), "application/json", ip)).status).toBe(200);
    expect(await post(JSON.stringify(valid("lim-x")), "application/json", ip)).toEqual({
      status: 429,
      body: { error: "Too many requests. Please try again later." },
    });
  });
});
