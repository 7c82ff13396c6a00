import { and, eq, sql } from "drizzle-orm";
import {
  buildSteps,
  isOnboardingStepId,
  onboardingCallTime,
  SCHEDULE_CALL_STEP_ID,
  SIGNUP_STEP_ID,
  type OnboardingStep,
} from "~/catalogue/onboarding";
import type { Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { activityEvents, onboardingProgress, userProfiles } from "../db/schema";

export interface OnboardingState {
  steps: OnboardingStep[];
  callScheduledAt: Date | null;
}

const stepsQuery = preparedPerHandle((db) =>
  db
    .select({ stepId: onboardingProgress.stepId })
    .from(onboardingProgress)
    .where(eq(onboardingProgress.userId, sql.placeholder("userId"))),
);
const callQuery = preparedPerHandle((db) =>
  db
    .select({ at: userProfiles.onboardingCallScheduledAt })
    .from(userProfiles)
    .where(eq(userProfiles.userId, sql.placeholder("userId"))),
);

/**
 * The user's steps and call time. Step 1 (account created) is complete for everyone who can ask: it
 * is derived, not stored, so showing the page writes nothing (a GET never changes state).
 */
export async function getOnboarding(db: Db, userId: string): Promise<OnboardingState> {
  const [rows, profiles] = await Promise.all([stepsQuery(db).execute({ userId }), callQuery(db).execute({ userId })]);
  return {
    steps: buildSteps([SIGNUP_STEP_ID, ...rows.map((r) => r.stepId)]),
    callScheduledAt: profiles[0]?.at ?? null,
  };
}

export type CompleteStepResult = { ok: true } | { ok: false; message: string };

/** Marks one step completed for this user (idempotent). */
export async function completeStep(db: Db, userId: string, stepId: string, now = new Date()): Promise<CompleteStepResult> {
  if (!isOnboardingStepId(stepId)) return { ok: false, message: "Unknown onboarding step." };
  await db.insert(onboardingProgress).values({ userId, stepId, completedAt: now }).onConflictDoNothing();
  return { ok: true };
}

/** Step 1 is a fact of the account (derived, never stored): it cannot be marked not done. */
export const SIGNUP_STEP_FIXED = "Your account exists, so this step stays completed.";

/**
 * Marks one completed step not done again (idempotent). Only the flag goes: a call that was
 * scheduled stays booked, so the customer can tick the step again without rebooking.
 */
export async function reopenStep(db: Db, userId: string, stepId: string): Promise<CompleteStepResult> {
  if (!isOnboardingStepId(stepId)) return { ok: false, message: "Unknown onboarding step." };
  if (stepId === SIGNUP_STEP_ID) return { ok: false, message: SIGNUP_STEP_FIXED };
  await db.delete(onboardingProgress).where(and(eq(onboardingProgress.userId, userId), eq(onboardingProgress.stepId, stepId)));
  return { ok: true };
}

/**
 * Schedules the onboarding call two days ahead at 14:00 in the customer's time zone, stores it in
 * user_profiles (upsert) and completes the 'Schedule your onboarding call' step.
 */
export async function scheduleOnboardingCall(
  db: Db,
  userId: string,
  now = new Date(),
  timeZone?: string,
): Promise<{ ok: true; at: Date }> {
  const at = onboardingCallTime(now, timeZone);
  await db.transaction(async (tx) => {
    await tx
      .insert(userProfiles)
      .values({ userId, onboardingCallScheduledAt: at, updatedAt: now })
      .onConflictDoUpdate({ target: userProfiles.userId, set: { onboardingCallScheduledAt: at, updatedAt: now } });
    await tx.insert(onboardingProgress).values({ userId, stepId: SCHEDULE_CALL_STEP_ID, completedAt: now }).onConflictDoNothing();
    await tx.insert(activityEvents).values({ userId, kind: "onboarding_call_scheduled", createdAt: now });
  });
  return { ok: true, at };
}
