import { and, eq, sql } from "drizzle-orm";
import { deriveEntitlements, type Entitlements } from "~/catalogue/entitlements";
import { overlayMode, isTrialPlanId, trialEndFrom, trialPlan, type OverlayMode } from "~/catalogue/trial";
import type { TrialPlanId } from "~/catalogue/plans";
import type { Db } from "../db/client.server";
import { activityEvents, trialAccess, userProfiles } from "../db/schema";
import { readEntitlementRows } from "../billing/entitlements.server";
import { queueUserEmailInTx } from "../mail/queue-email.server";

export type TrialAccessRow = typeof trialAccess.$inferSelect;

export interface TrialStatus {
  trial: TrialAccessRow;
  /** Something the account pays for opens the dashboard (entitlements' `paying`). */
  hasActiveSubscription: boolean;
  /** The gate: an active trial or something paid for. */
  active: boolean;
  overlay: OverlayMode;
  entitlements: Entitlements;
}

/** The user's trial_access row, created on first use with trial_started false and a zero access count. */
export async function ensureTrialAccess(db: Db, userId: string): Promise<TrialAccessRow> {
  // Read first: the row exists on every visit but the first, and an insert (even one that does
  // nothing) is a write transaction on every dashboard page load.
  const [existing] = await db.select().from(trialAccess).where(eq(trialAccess.userId, userId));
  return existing ?? createTrialAccess(db, userId);
}

/** Creates the trial_access row the caller found missing; a request that created it meanwhile wins. */
async function createTrialAccess(db: Db, userId: string): Promise<TrialAccessRow> {
  const [created] = await db
    .insert(trialAccess)
    .values({ userId })
    .onConflictDoNothing({ target: trialAccess.userId })
    .returning();
  if (created) return created;
  const [row] = await db.select().from(trialAccess).where(eq(trialAccess.userId, userId));
  if (!row) throw new Error("trial_access row missing after insert");
  return row;
}

/**
 * Whether something the account pays for opens the dashboard (a plan or tier, add-ons, a monthly
 * app, package or distributor membership past its free trial): the entitlements' rule
 * (app/catalogue/entitlements.ts). A subscription still in its free trial grants its item only.
 */
export async function hasActiveSubscription(db: Db, userId: string, now = new Date()): Promise<boolean> {
  const rows = (await readEntitlementRows(db, [userId])).get(userId)!;
  return deriveEntitlements({ ...rows, trial: null }, now).paying;
}

/** The gate for one user, creating the trial record when it is missing. */
export async function getTrialStatus(db: Db, userId: string, now = new Date()): Promise<TrialStatus> {
  // The trial row and the rest in one read: this runs on every dashboard page load. The row is
  // created only on the account's first visit.
  const rows = (await readEntitlementRows(db, [userId])).get(userId)!;
  const trial = rows.trial ?? (await createTrialAccess(db, userId));
  const entitlements = deriveEntitlements({ ...rows, trial }, now);
  const overlay = overlayMode(trial, entitlements.paying, now);
  return { trial, hasActiveSubscription: entitlements.paying, active: overlay === "none", overlay, entitlements };
}

/**
 * One dashboard page load. Spec section 4 'Dashboard gate': with no access and no trial started,
 * the visit increments dashboard_access_count and stamps last_dashboard_access. Every visit is also
 * recorded as a 'dashboard_visit' activity event. Called by POST /api/dashboard/visit, which the
 * dashboard sends once per page opened (ADR 0027), never from a loader.
 */
export async function recordDashboardVisit(db: Db, userId: string, now = new Date()): Promise<TrialStatus> {
  const [status] = await Promise.all([
    getTrialStatus(db, userId, now),
    // Every visit is part of the account's own activity (charted on /dashboard/analytics).
    db.insert(activityEvents).values({ userId, kind: "dashboard_visit", createdAt: now }),
  ]);
  if (status.active || status.trial.trialStarted) return status;
  const [trial] = await db
    .update(trialAccess)
    .set({
      dashboardAccessCount: sql`${trialAccess.dashboardAccessCount} + 1`,
      lastDashboardAccess: now,
      // The first view starts the free preview; later ones (a reload, another tab) keep its start.
      previewStartedAt: sql`coalesce(${trialAccess.previewStartedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(eq(trialAccess.userId, userId), eq(trialAccess.trialStarted, false)))
    .returning();
  return trial ? { ...status, trial } : status;
}

export type StartTrialResult =
  { ok: true; trial: TrialAccessRow } | { ok: false; reason: "unknown-plan" | "paid-plan" | "already-used"; message: string };

/** The one plan that starts free (spec section 4 'Trial overlay': Growth and Pro are upgrades, bought on /packages). */
const FREE_TRIAL_PLAN_ID: TrialPlanId = "starter";

/**
 * Starts the 7-day trial on the Starter plan. Growth and Pro are refused: the chooser sends them to
 * /packages to be bought, and a crafted request must not record a paid plan (and its price) on a
 * free trial. One trial per account: a second start is refused and never extends the first. trial_access, user_profiles and the activity event are written in one
 * transaction; the row lock on trial_access makes two concurrent starts safe.
 */
export async function startTrial(db: Db, userId: string, planId: string, now = new Date()): Promise<StartTrialResult> {
  if (!isTrialPlanId(planId)) return { ok: false, reason: "unknown-plan", message: "Unknown trial plan." };
  if (planId !== FREE_TRIAL_PLAN_ID) {
    const name = trialPlan(planId).name;
    return { ok: false, reason: "paid-plan", message: `${name} is a paid plan: upgrade on the packages page.` };
  }
  const plan = trialPlan(planId);
  await ensureTrialAccess(db, userId);
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(trialAccess).where(eq(trialAccess.userId, userId)).for("update");
    if (current?.trialStarted) {
      return {
        ok: false as const,
        reason: "already-used" as const,
        message: "Your free trial has already been used. Upgrade to a plan to keep using the dashboard.",
      };
    }
    const values = {
      trialStarted: true,
      trialActivatedAt: now,
      trialEndsAt: trialEndFrom(now),
      selectedPlan: plan.id,
      planPrice: plan.price,
    };
    const [trial] = await tx
      .insert(trialAccess)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: trialAccess.userId, set: values })
      .returning();
    const profile = { selectedPlan: plan.id, planPrice: plan.price, trialStarted: true, updatedAt: now };
    await tx
      .insert(userProfiles)
      .values({ userId, ...profile })
      .onConflictDoUpdate({ target: userProfiles.userId, set: profile });
    await tx.insert(activityEvents).values({ userId, kind: "trial_started", createdAt: now });
    if (!trial) throw new Error("trial_access upsert returned no row");
    // One trial per account, so one email per account.
    await queueUserEmailInTx(tx as unknown as Db, userId, {
      kind: "trialStarted",
      props: { itemName: `the ${plan.name} plan`, endsAt: values.trialEndsAt },
      subjectId: "dashboard-trial",
    });
    return { ok: true as const, trial };
  });
}

/** A started trial that has ended, with no active subscription: the overlay's plan chooser says the same. */
export const TRIAL_ENDED_MESSAGE = "Your trial has ended. Choose a plan to continue.";
/** No trial started yet and no subscription (spec section 4, the trial panel's words). */
export const TRIAL_NOT_STARTED_MESSAGE = "Start your free trial to access all features";

/**
 * The dashboard gate (spec section 4) for the services the dashboard's forms use: booking the
 * onboarding call, completing onboarding steps and opening support tickets. The browser's overlay
 * covers the pages of a user without an active trial or subscription; this refuses their posts,
 * which a crafted request (or a page left open past the trial's end) still sends. The 15-second
 * free preview is for looking: before a trial starts, writes are refused too (ADR 0025). Null when
 * the user has access, otherwise the message the form shows (with a 403).
 */
export async function serviceAccessRefusal(db: Db, userId: string, now = new Date()): Promise<string | null> {
  const status = await getTrialStatus(db, userId, now);
  if (status.active) return null;
  return status.overlay === "expired" ? TRIAL_ENDED_MESSAGE : TRIAL_NOT_STARTED_MESSAGE;
}
