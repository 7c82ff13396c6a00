import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityEvents, trialAccess, user, userProfiles, userSubscriptions } from "~/server/db/schema";
import { ensureTrialAccess, getTrialStatus, recordDashboardVisit, startTrial } from "~/server/trial/trial.server";
import { engine, freshDatabase } from "./support/db";

const DAY = 24 * 60 * 60 * 1000;

describe(`trial (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let n = 0;
  const newUser = async () => {
    n += 1;
    const id = `trial-user-${n}`;
    await database.db.insert(user).values({ id, name: `User ${n}`, email: `trial-${n}@example.com`, emailVerified: true });
    return id;
  };
  const row = async (userId: string) => (await database.db.select().from(trialAccess).where(eq(trialAccess.userId, userId)))[0];

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("creates the record on first load with trial_started false and a zero access count", async () => {
    const id = await newUser();
    expect(await row(id)).toBeUndefined();
    const status = await getTrialStatus(database.db, id);
    expect(status.trial).toMatchObject({ userId: id, trialStarted: false, dashboardAccessCount: 0, trialEndsAt: null });
    expect(status).toMatchObject({ active: false, overlay: "preview", hasActiveSubscription: false });
    // Idempotent: a second call neither duplicates nor resets.
    await ensureTrialAccess(database.db, id);
    expect(await row(id)).toMatchObject({ dashboardAccessCount: 0 });
  });

  it("first loads at once create one record and all see it", async () => {
    const id = await newUser();
    const statuses = await Promise.all([1, 2, 3].map(() => getTrialStatus(database.db, id)));
    for (const status of statuses) expect(status.trial).toEqual(await row(id));
    expect(await row(id)).toMatchObject({ userId: id, trialStarted: false, dashboardAccessCount: 0 });
  });

  it("each dashboard visit without access increments the count and stamps the time", async () => {
    const id = await newUser();
    const t1 = new Date("2026-05-01T10:00:00Z");
    const t2 = new Date("2026-05-01T10:05:00Z");
    await recordDashboardVisit(database.db, id, t1);
    const after = await recordDashboardVisit(database.db, id, t2);
    expect(after.trial.dashboardAccessCount).toBe(2);
    expect(after.trial.lastDashboardAccess?.toISOString()).toBe(t2.toISOString());
    const events = await database.db.select().from(activityEvents).where(eq(activityEvents.userId, id));
    expect(events.map((e) => e.kind)).toEqual(["dashboard_visit", "dashboard_visit"]);
    expect(await row(id)).toMatchObject({ dashboardAccessCount: 2 });
  });

  it("the free preview starts at the first dashboard view and a later view does not restart it", async () => {
    const id = await newUser();
    const first = new Date("2026-05-01T10:00:00Z");
    expect((await getTrialStatus(database.db, id, first)).trial.previewStartedAt).toBeNull();
    await recordDashboardVisit(database.db, id, first);
    await recordDashboardVisit(database.db, id, new Date(first.getTime() + 10_000));
    const later = await getTrialStatus(database.db, id, new Date(first.getTime() + 12_000));
    expect(later.trial.previewStartedAt?.toISOString()).toBe(first.toISOString());
    expect(later.overlay).toBe("preview");
  });

  it("starting a trial sets 7 days and the Starter plan, in trial_access and user_profiles", async () => {
    const id = await newUser();
    const now = new Date("2026-05-02T08:00:00Z");
    const result = await startTrial(database.db, id, "starter", now);
    expect(result.ok).toBe(true);
    const trial = await row(id);
    expect(trial).toMatchObject({ trialStarted: true, selectedPlan: "starter", planPrice: 0 });
    expect(trial?.trialActivatedAt?.toISOString()).toBe(now.toISOString());
    expect(trial?.trialEndsAt?.getTime()).toBe(now.getTime() + 7 * DAY);
    const [profile] = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(profile).toMatchObject({ selectedPlan: "starter", planPrice: 0, trialStarted: true });
    const events = await database.db.select().from(activityEvents).where(eq(activityEvents.userId, id));
    expect(events.map((e) => e.kind)).toEqual(["trial_started"]);
    const status = await getTrialStatus(database.db, id, new Date(now.getTime() + DAY));
    expect(status).toMatchObject({ active: true, overlay: "none" });
    // With access, a visit does not count.
    await recordDashboardVisit(database.db, id, new Date(now.getTime() + DAY));
    expect((await row(id))?.dashboardAccessCount).toBe(0);
  });

  it("Growth and Pro are paid plans: a request to start them free is refused and writes nothing", async () => {
    const id = await newUser();
    for (const plan of ["growth", "pro"]) {
      const result = await startTrial(database.db, id, plan);
      expect(result).toMatchObject({ ok: false, reason: "paid-plan" });
    }
    expect(await row(id)).toBeUndefined();
    expect(await database.db.select().from(userProfiles).where(eq(userProfiles.userId, id))).toEqual([]);
    expect(await database.db.select().from(activityEvents).where(eq(activityEvents.userId, id))).toEqual([]);
  });

  it("one trial per account: a second start is refused and never extends the first", async () => {
    const id = await newUser();
    const first = new Date("2026-05-03T08:00:00Z");
    await startTrial(database.db, id, "starter", first);
    const second = await startTrial(database.db, id, "starter", new Date(first.getTime() + 3 * DAY));
    expect(second).toMatchObject({ ok: false, reason: "already-used" });
    const trial = await row(id);
    expect(trial?.trialEndsAt?.getTime()).toBe(first.getTime() + 7 * DAY);
    expect(trial).toMatchObject({ selectedPlan: "starter", planPrice: 0 });
    // Also after expiry.
    const third = await startTrial(database.db, id, "starter", new Date(first.getTime() + 30 * DAY));
    expect(third.ok).toBe(false);
    expect((await row(id))?.trialEndsAt?.getTime()).toBe(first.getTime() + 7 * DAY);
  });

  it("two concurrent starts produce exactly one trial", async () => {
    const id = await newUser();
    const results = await Promise.all([startTrial(database.db, id, "starter"), startTrial(database.db, id, "starter")]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const events = await database.db.select().from(activityEvents).where(eq(activityEvents.userId, id));
    expect(events).toHaveLength(1);
  });

  it("refuses an unknown plan and writes nothing", async () => {
    const id = await newUser();
    const result = await startTrial(database.db, id, "enterprise");
    expect(result).toMatchObject({ ok: false, reason: "unknown-plan" });
    expect(await row(id)).toBeUndefined();
    expect(await database.db.select().from(userProfiles).where(eq(userProfiles.userId, id))).toEqual([]);
  });

  it("an expired trial is inactive and shows the expired overlay; visits are not counted", async () => {
    const id = await newUser();
    const start = new Date("2026-04-01T00:00:00Z");
    await startTrial(database.db, id, "starter", start);
    const end = new Date(start.getTime() + 7 * DAY);
    expect(await getTrialStatus(database.db, id, end)).toMatchObject({ active: false, overlay: "expired" });
    await recordDashboardVisit(database.db, id, end);
    expect((await row(id))?.dashboardAccessCount).toBe(0);
  });

  it("an active subscription counts as active; another status does not", async () => {
    const id = await newUser();
    await database.db.insert(userSubscriptions).values({ userId: id, planName: "Pro", planType: "pro", status: "canceled" });
    expect((await getTrialStatus(database.db, id)).active).toBe(false);
    await database.db.insert(userSubscriptions).values({ userId: id, planName: "Pro", planType: "pro", status: "active" });
    expect(await getTrialStatus(database.db, id)).toMatchObject({ active: true, hasActiveSubscription: true, overlay: "none" });
  });

  it("user A's calls never read or change user B's rows", async () => {
    const a = await newUser();
    const b = await newUser();
    await recordDashboardVisit(database.db, b, new Date("2026-05-05T00:00:00Z"));
    await database.db.insert(userSubscriptions).values({ userId: b, status: "active" });
    const before = await row(b);
    const eventsBefore = await database.db.select().from(activityEvents).where(eq(activityEvents.userId, b));
    expect(eventsBefore.map((e) => e.kind)).toEqual(["dashboard_visit"]);
    const [profileBefore] = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, b));

    const statusA = await recordDashboardVisit(database.db, a);
    expect(statusA.trial.userId).toBe(a);
    expect(statusA.hasActiveSubscription).toBe(false);
    expect(statusA.trial.dashboardAccessCount).toBe(1);
    await startTrial(database.db, a, "starter");

    expect(await row(b)).toEqual(before);
    const [profileAfter] = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, b));
    expect(profileAfter).toEqual(profileBefore);
    expect(await database.db.select().from(activityEvents).where(eq(activityEvents.userId, b))).toEqual(eventsBefore);
  });
});
