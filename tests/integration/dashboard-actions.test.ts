import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action as onboardingAction } from "~/routes/_dashboard/onboarding";
import { action as profileAction, loader as profileLoader } from "~/routes/_dashboard/profile";
import { action as supportAction } from "~/routes/_dashboard/support";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { TRIAL_ENDED_MESSAGE, TRIAL_NOT_STARTED_MESSAGE } from "~/server/trial/trial.server";
import { NO_PASSWORD_MESSAGE } from "~/server/profile/profile.server";
import { startTrial } from "~/server/trial/trial.server";
import { engine, freshDatabase } from "./support/db";
import { routeAnswer, routeArgs } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";
let clients = 0;

const post = (path: string, cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
const support = (cookie: string, form: Record<string, string>) =>
  routeAnswer(supportAction(routeArgs(post("/dashboard/support", cookie, form))));
const onboarding = (cookie: string, form: Record<string, string>) =>
  routeAnswer(onboardingAction(routeArgs(post("/dashboard/onboarding", cookie, form))));
const profile = (cookie: string, form: Record<string, string>) =>
  routeAnswer(profileAction(routeArgs(post("/dashboard/profile", cookie, form))));

/**
 * The route actions of /dashboard/support, /dashboard/onboarding and /dashboard/profile, called as
 * React Router calls them, on a database and a Better Auth of their own: the trial gate on the
 * services (ADR 0025), failures kept in the form, the Google-only password change and the name limits.
 */
describe(`dashboard route actions (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;

  const authPost = (path: string, body: Record<string, unknown>, cookie?: string) =>
    auth.handler(
      new Request(`${SITE}/api/auth${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: SITE,
          "x-client-ip": `10.11.${Math.floor(++clients / 250)}.${clients % 250}`,
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify(body),
      }),
    );

  let n = 0;
  /** A verified, signed-in customer: its id and session cookie. */
  const customer = async () => {
    n += 1;
    const email = `actions-${n}@example.com`;
    const signedUp = await authPost("/sign-up/email", { email, password: PASSWORD, name: `Customer ${n}` });
    expect(signedUp.status).toBe(200);
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
    const signedIn = await authPost("/sign-in/email", { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const [row] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
    return { id: row!.id, cookie };
  };

  const TICKET = {
    intent: "create-ticket",
    subject: "Cannot connect CRM",
    category: "Technical",
    message: "The CRM link fails.",
  };
  const tickets = async (userId: string) =>
    database.db.select().from(schema.supportTickets).where(eq(schema.supportTickets.userId, userId));
  const steps = async (userId: string) =>
    (
      await database.db
        .select({ stepId: schema.onboardingProgress.stepId })
        .from(schema.onboardingProgress)
        .where(eq(schema.onboardingProgress.userId, userId))
    ).map((r) => r.stepId);
  const endTrial = (userId: string) =>
    database.db
      .update(schema.trialAccess)
      .set({ trialEndsAt: new Date(Date.now() - 1000) })
      .where(eq(schema.trialAccess.userId, userId));

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("support: no ticket without an active trial or subscription (403, message and values in the form)", async () => {
    const { id, cookie } = await customer();
    // Never started: the free preview is for looking.
    const before = await support(cookie, TICKET);
    expect(before.status).toBe(403);
    expect(before.body).toMatchObject({ ok: false, errors: { form: TRIAL_NOT_STARTED_MESSAGE } });
    expect(before.body?.values).toMatchObject({ subject: TICKET.subject, message: TICKET.message });
    expect(await tickets(id)).toHaveLength(0);

    expect((await startTrial(database.db, id, "starter")).ok).toBe(true);
    expect(await support(cookie, TICKET)).toMatchObject({ status: 200, body: { ok: true } });
    expect(await tickets(id)).toHaveLength(1);

    await endTrial(id);
    const after = await support(cookie, { ...TICKET, subject: "After the end" });
    expect(after).toMatchObject({ status: 403, body: { ok: false, errors: { form: TRIAL_ENDED_MESSAGE } } });
    expect(await tickets(id)).toHaveLength(1);

    // An active subscription is access too.
    await database.db.insert(schema.userSubscriptions).values({ userId: id, planType: "basic", status: "active" });
    expect(await support(cookie, { ...TICKET, subject: "Subscribed" })).toMatchObject({ status: 200 });
    expect(await tickets(id)).toHaveLength(2);
  });

  it("support: a ticket records a 'ticket_opened' activity event for the analytics chart", async () => {
    const { id, cookie } = await customer();
    await startTrial(database.db, id, "starter");
    expect((await support(cookie, TICKET)).status).toBe(200);
    const events = await database.db
      .select()
      .from(schema.activityEvents)
      .where(and(eq(schema.activityEvents.userId, id), eq(schema.activityEvents.kind, "ticket_opened")));
    expect(events).toHaveLength(1);
    expect(events[0]!.createdAt.getTime()).toBe((await tickets(id))[0]!.createdAt.getTime());
  });

  it("onboarding: steps and the call are refused without access, before and after the trial", async () => {
    const { id, cookie } = await customer();
    for (const form of [{ intent: "complete", step: "connect-tools" }, { intent: "schedule-call" }] as Record<string, string>[]) {
      expect(await onboarding(cookie, form)).toEqual({ status: 403, body: { ok: false, error: TRIAL_NOT_STARTED_MESSAGE } });
    }
    expect(await steps(id)).toEqual([]);
    const [profileRow] = await database.db.select().from(schema.userProfiles).where(eq(schema.userProfiles.userId, id));
    expect(profileRow?.onboardingCallScheduledAt ?? null).toBeNull();

    await startTrial(database.db, id, "starter");
    expect(await onboarding(cookie, { intent: "complete", step: "connect-tools" })).toMatchObject({ status: 200 });
    expect(await onboarding(cookie, { intent: "schedule-call" })).toMatchObject({ status: 200 });
    expect((await steps(id)).sort()).toEqual(["connect-tools", "schedule-call"]);

    await endTrial(id);
    for (const form of [{ intent: "complete", step: "launch-app" }, { intent: "schedule-call" }] as Record<string, string>[]) {
      expect(await onboarding(cookie, form)).toEqual({ status: 403, body: { ok: false, error: TRIAL_ENDED_MESSAGE } });
    }
    expect((await steps(id)).sort()).toEqual(["connect-tools", "schedule-call"]);
  });

  it("a database failure is a form error that keeps the ticket, and is logged", async () => {
    const { id, cookie } = await customer();
    await startTrial(database.db, id, "starter");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await database.db.execute(sql`alter table support_tickets rename to support_tickets_away`);
    await database.db.execute(sql`alter table onboarding_progress rename to onboarding_progress_away`);
    try {
      const ticket = await support(cookie, TICKET);
      expect(ticket.status).toBe(500);
      expect(ticket.body).toEqual({
        ok: false,
        errors: { form: "Something went wrong. Please try again." },
        values: { subject: TICKET.subject, category: TICKET.category, message: TICKET.message },
      });
      const step = await onboarding(cookie, { intent: "complete", step: "connect-tools" });
      expect(step).toEqual({ status: 500, body: { ok: false, error: "Something went wrong. Please try again." } });
      const lines = logged.mock.calls.map((c) => JSON.parse(String(c[0])) as { level: string; msg: string; userId: string });
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ level: "error", msg: "support ticket failed", userId: id }),
          expect.objectContaining({ level: "error", msg: "complete onboarding step failed", userId: id }),
        ]),
      );
    } finally {
      await database.db.execute(sql`alter table support_tickets_away rename to support_tickets`);
      await database.db.execute(sql`alter table onboarding_progress_away rename to onboarding_progress`);
      logged.mockRestore();
    }
  });

  it("profile: a Google-only account is told it has no password, not that the password is wrong", async () => {
    const { id, cookie } = await customer();
    const form = {
      intent: "password",
      currentPassword: "anything-at-all",
      newPassword: "a-new-password",
      confirmPassword: "a-new-password",
    };
    // With a password: a wrong current password is still a field error.
    expect(await profile(cookie, form)).toEqual({
      status: 400,
      body: { intent: "password", ok: false, errors: { currentPassword: "Current password is incorrect" } },
    });
    // The same account as Google made it: no credential account, a Google one.
    await database.db
      .delete(schema.account)
      .where(and(eq(schema.account.userId, id), eq(schema.account.providerId, "credential")));
    await database.db
      .insert(schema.account)
      .values({ id: `google-${id}`, accountId: `google-sub-${id}`, providerId: "google", userId: id });
    expect(await profile(cookie, form)).toEqual({
      status: 400,
      body: { intent: "password", ok: false, errors: { form: NO_PASSWORD_MESSAGE } },
    });
  });

  it("profile: first and last names take sign-up's 100 characters, in the schema and the form's maxLength", async () => {
    const { id, cookie } = await customer();
    const loaded = (await profileLoader(routeArgs(new Request(`${SITE}/dashboard/profile`, { headers: { cookie } })))) as {
      limits: Record<string, number>;
    };
    expect(loaded.limits).toEqual({ firstName: 100, lastName: 100, companyName: 100 });

    const long = { intent: "profile", firstName: "F".repeat(100), lastName: "L".repeat(100), companyName: "" };
    expect(await profile(cookie, long)).toEqual({ status: 200, body: { intent: "profile", ok: true } });
    const [row] = await database.db.select().from(schema.user).where(eq(schema.user.id, id));
    expect([row!.firstName, row!.lastName]).toEqual(["F".repeat(100), "L".repeat(100)]);

    const tooLong = await profile(cookie, { ...long, firstName: "F".repeat(101), lastName: "L".repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body?.errors).toEqual({
      firstName: "First name must be at most 100 characters",
      lastName: "Last name must be at most 100 characters",
    });
  });
});
