import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onboardingProgress, trialAccess, user, userProfiles, userSubscriptions } from "~/server/db/schema";
import {
  completeStep,
  getOnboarding,
  reopenStep,
  scheduleOnboardingCall,
  SIGNUP_STEP_FIXED,
} from "~/server/onboarding/onboarding.server";
import { serviceAccessRefusal, startTrial, TRIAL_ENDED_MESSAGE, TRIAL_NOT_STARTED_MESSAGE } from "~/server/trial/trial.server";
import { engine, freshDatabase } from "./support/db";

describe(`onboarding (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let n = 0;
  const newUser = async () => {
    n += 1;
    const id = `onb-user-${n}`;
    await database.db.insert(user).values({ id, name: `User ${n}`, email: `onb-${n}@example.com`, emailVerified: true });
    return id;
  };
  const completed = async (userId: string) =>
    (await getOnboarding(database.db, userId)).steps.filter((s) => s.completed).map((s) => s.id);

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("step 1 (account created) starts completed, the other 7 open, and reading writes nothing", async () => {
    const id = await newUser();
    const state = await getOnboarding(database.db, id);
    expect(state.steps).toHaveLength(8);
    expect(state.steps.filter((s) => s.completed).map((s) => s.id)).toEqual(["create-account"]);
    expect(state.callScheduledAt).toBeNull();
    await getOnboarding(database.db, id);
    const rows = await database.db.select().from(onboardingProgress).where(eq(onboardingProgress.userId, id));
    expect(rows).toHaveLength(0);
  });

  it("saves a completed step (idempotent) and refuses unknown steps", async () => {
    const id = await newUser();
    expect(await completeStep(database.db, id, "connect-tools")).toEqual({ ok: true });
    expect(await completeStep(database.db, id, "connect-tools")).toEqual({ ok: true });
    expect(await completeStep(database.db, id, "bogus")).toMatchObject({ ok: false });
    expect(await completed(id)).toEqual(["create-account", "connect-tools"]);
  });

  it("a completed step can be marked not done again; the account step cannot", async () => {
    const id = await newUser();
    await completeStep(database.db, id, "connect-tools");
    await completeStep(database.db, id, "launch-app");
    expect(await reopenStep(database.db, id, "connect-tools")).toEqual({ ok: true });
    expect(await reopenStep(database.db, id, "connect-tools")).toEqual({ ok: true });
    expect(await completed(id)).toEqual(["create-account", "launch-app"]);
    expect(await reopenStep(database.db, id, "create-account")).toEqual({ ok: false, message: SIGNUP_STEP_FIXED });
    expect(await reopenStep(database.db, id, "bogus")).toMatchObject({ ok: false });
    expect(await completed(id)).toEqual(["create-account", "launch-app"]);
    // Ticked again after the undo: a new row, as on the first time.
    await completeStep(database.db, id, "connect-tools");
    expect(await completed(id)).toEqual(["create-account", "connect-tools", "launch-app"]);
  });

  it("schedules the call two days ahead at 14:00 UTC (upsert) and completes step 2", async () => {
    const id = await newUser();
    const result = await scheduleOnboardingCall(database.db, id, new Date("2026-06-10T21:15:00Z"));
    expect(result.at.toISOString()).toBe("2026-06-12T14:00:00.000Z");
    const again = await scheduleOnboardingCall(database.db, id, new Date("2026-06-11T09:00:00Z"));
    expect(again.at.toISOString()).toBe("2026-06-13T14:00:00.000Z");
    const profiles = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(profiles).toHaveLength(1);
    expect(profiles[0]?.onboardingCallScheduledAt?.toISOString()).toBe("2026-06-13T14:00:00.000Z");
    const state = await getOnboarding(database.db, id);
    expect(state.callScheduledAt?.toISOString()).toBe("2026-06-13T14:00:00.000Z");
    expect(state.steps.find((s) => s.id === "schedule-call")?.completed).toBe(true);
  });

  it("user A's changes never touch user B's rows", async () => {
    const a = await newUser();
    const b = await newUser();
    await getOnboarding(database.db, b);
    await scheduleOnboardingCall(database.db, b, new Date("2026-06-01T00:00:00Z"));
    const progressBefore = await database.db.select().from(onboardingProgress).where(eq(onboardingProgress.userId, b));
    const [profileBefore] = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, b));

    await completeStep(database.db, a, "launch-app");
    await scheduleOnboardingCall(database.db, a, new Date("2026-07-01T00:00:00Z"));
    const stateA = await getOnboarding(database.db, a);
    expect(stateA.callScheduledAt?.toISOString()).toBe("2026-07-03T14:00:00.000Z");

    expect(await database.db.select().from(onboardingProgress).where(eq(onboardingProgress.userId, b))).toEqual(progressBefore);
    const [profileAfter] = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, b));
    expect(profileAfter).toEqual(profileBefore);
    expect(await completed(b)).toEqual(["create-account", "schedule-call"]);
  });

  it("services need an active trial or subscription: the refusal says which (ADR 0025)", async () => {
    const id = await newUser();
    const start = new Date("2026-06-01T10:00:00Z");
    expect(await serviceAccessRefusal(database.db, id, start)).toBe(TRIAL_NOT_STARTED_MESSAGE);
    expect((await startTrial(database.db, id, "starter", start)).ok).toBe(true);
    expect(await serviceAccessRefusal(database.db, id, new Date("2026-06-08T09:59:59Z"))).toBeNull();
    const [trial] = await database.db.select().from(trialAccess).where(eq(trialAccess.userId, id));
    expect(await serviceAccessRefusal(database.db, id, trial!.trialEndsAt!)).toBe(TRIAL_ENDED_MESSAGE);
    await database.db.insert(userSubscriptions).values({ userId: id, planType: "basic", status: "active" });
    expect(await serviceAccessRefusal(database.db, id, new Date("2026-07-01T00:00:00Z"))).toBeNull();
  });
});
