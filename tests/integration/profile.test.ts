import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccountAnalytics } from "~/server/analytics/activity.server";
import {
  activityEvents,
  billingCustomers,
  orders,
  supportTickets,
  trialAccess,
  user,
  userSubscriptions,
} from "~/server/db/schema";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { getSubscriptionSummary, planNameOf } from "~/server/billing/subscription-summary.server";
import { displayName, fieldErrors, passwordInput, profileInput } from "~/server/profile/profile.server";
import { DEFAULT_SETTINGS, getSettings, saveSettings, settingsInput } from "~/server/profile/settings.server";
import { engine, freshDatabase } from "./support/db";
import { userFieldsProblem } from "~/server/auth/auth-input.server";

/** A paid Stripe subscription order of user-subs. */
const order = (id: string, values: Partial<typeof orders.$inferInsert>) => ({
  id,
  userId: "user-subs",
  kind: "addons",
  itemId: id,
  itemName: id,
  amount: 1000,
  provider: "stripe",
  providerSessionId: `cs_test_${id}`,
  isSubscription: true,
  status: "paid",
  paidAt: new Date(),
  ...values,
});

describe(`profile, settings, billing and analytics (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
    await database.db.insert(user).values([
      { id: "user-a", name: "A", email: "a@example.com", emailVerified: true },
      { id: "user-b", name: "B", email: "b@example.com", emailVerified: true },
    ]);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("validates the profile and password forms", () => {
    // Names are optional, as on sign-up: a company name alone is a valid profile.
    expect(profileInput.parse({ firstName: " ", lastName: "", companyName: "Navy Labs" })).toEqual({
      firstName: "",
      lastName: "",
      companyName: "Navy Labs",
    });
    expect(displayName(profileInput.parse({ firstName: "", lastName: "", companyName: "" }), "a@example.com")).toBe(
      "a@example.com",
    );
    expect(displayName(profileInput.parse({ firstName: "", lastName: " Doe ", companyName: "" }), "a@example.com")).toBe("Doe");
    // Still limited in length and characters.
    // Sign-up's limits (USER_FIELD_LIMITS): a 100-character name from sign-up saves again unchanged.
    expect(profileInput.safeParse({ firstName: "x".repeat(100), lastName: "y".repeat(100), companyName: "" }).success).toBe(true);
    expect(userFieldsProblem({ firstName: "x".repeat(100), lastName: "y".repeat(100) })).toBeNull();
    const profile = profileInput.safeParse({ firstName: "x".repeat(101), lastName: "Doe\u0007", companyName: "" });
    expect(profile.success).toBe(false);
    expect(fieldErrors(profile.error!)).toEqual({
      firstName: "First name must be at most 100 characters",
      lastName: "Remove the special characters from this field",
    });
    // The company name's limit is the one Better Auth's user-field hook enforces (a longer one passed
    // the form and failed in updateUser with a 500).
    expect(profileInput.safeParse({ firstName: "", lastName: "", companyName: "c".repeat(100) }).success).toBe(true);
    const company = profileInput.safeParse({ firstName: "", lastName: "", companyName: "c".repeat(101) });
    expect(fieldErrors(company.error!)).toEqual({ companyName: "Company name must be at most 100 characters" });
    expect(userFieldsProblem({ companyName: "c".repeat(100) })).toBeNull();
    expect(userFieldsProblem({ companyName: "c".repeat(101) })).not.toBeNull();

    const mismatch = passwordInput.safeParse({
      currentPassword: "old-password",
      newPassword: "new-password",
      confirmPassword: "other",
    });
    expect(fieldErrors(mismatch.error!)).toEqual({ confirmPassword: "Passwords do not match" });
    const short = passwordInput.safeParse({ currentPassword: "x", newPassword: "short", confirmPassword: "short" });
    expect(fieldErrors(short.error!).newPassword).toBe("New password must be at least 8 characters");
    const ok = passwordInput.parse({
      currentPassword: "old-password",
      newPassword: "new-password",
      confirmPassword: "new-password",
      revokeOtherSessions: "on",
    });
    expect(ok.revokeOtherSessions).toBe(true);
  });

  it("settings: defaults, then saved values read back per user", async () => {
    expect(await getSettings(database.db, "user-a")).toEqual(DEFAULT_SETTINGS);
    const parsed = settingsInput.parse({ productNews: "on", smsAlerts: "on", sidebar: "collapsed" });
    const saved = await saveSettings(database.db, "user-a", {
      emailUpdates: parsed.emailUpdates,
      productNews: parsed.productNews,
      smsAlerts: parsed.smsAlerts,
      sidebarCollapsed: parsed.sidebar === "collapsed",
    });
    expect(saved).toEqual({ emailUpdates: false, productNews: true, smsAlerts: true, sidebarCollapsed: true, timeZone: null });
    await saveSettings(database.db, "user-a", { ...saved, emailUpdates: true });
    expect((await getSettings(database.db, "user-a")).emailUpdates).toBe(true);
    expect(await getSettings(database.db, "user-b")).toEqual(DEFAULT_SETTINGS);
    expect(settingsInput.safeParse({ sidebar: "sideways" }).success).toBe(false);
  });

  it("billing: Free Trial without a subscription, plan name fallbacks, only active rows count", async () => {
    expect(await getSubscriptionSummary(database.db, "user-a")).toMatchObject({ active: false, planName: "Free Trial" });
    expect(planNameOf({ planName: null, planType: "pro" })).toBe("Pro");
    expect(planNameOf({ planName: "Custom", planType: "pro" })).toBe("Custom");
    expect(planNameOf({ planName: null, planType: "weird" })).toBe("Free Trial");

    await database.db.insert(userSubscriptions).values({ userId: "user-a", planType: "basic", status: "canceled" });
    expect((await getSubscriptionSummary(database.db, "user-a")).active).toBe(false);
    await database.db
      .insert(userSubscriptions)
      .values({ userId: "user-a", planType: "enterprise", status: "active", monthlyPrice: 99900, reachLimit: 1_000_000 });
    expect(await getSubscriptionSummary(database.db, "user-a")).toMatchObject({
      active: true,
      planName: "Enterprise",
      monthlyPrice: 99900,
    });
    expect((await getSubscriptionSummary(database.db, "user-b")).active).toBe(false);
  });

  it("billing: paid subscription orders (add-ons, monthly apps, distributor) and the Stripe customer are in the summary", async () => {
    await database.db.insert(user).values({ id: "user-subs", name: "S", email: "subs@example.com", emailVerified: true });
    const empty = await getSubscriptionSummary(database.db, "user-subs");
    expect(empty).toMatchObject({ otherSubscriptions: [], otherSubscriptionActive: false, hasBillingAccount: false });

    await database.db.insert(orders).values([
      order("addons-1", { itemName: "2 add-ons", amount: 9800, paidAt: new Date("2026-03-02T00:00:00Z") }),
      order("dist-1", {
        kind: "distributor",
        itemName: "AI Distributor Program",
        amount: 19900,
        setupFee: 99700,
        subscriptionStatus: "past_due",
        paidAt: new Date("2026-03-01T00:00:00Z"),
      }),
      // Not listed: a plan (its user_subscriptions row is the plan), a one-time app, an ended or unpaid subscription.
      order("plan-1", { kind: "plan", itemName: "Pro" }),
      order("app-once", { kind: "app", isSubscription: false }),
      order("app-ended", { kind: "app", status: "canceled" }),
      order("app-pending", { kind: "app", status: "pending", paidAt: null }),
    ]);
    // The overview counts this customer as subscribed, and so does the billing page now.
    expect(await hasActiveSubscription(database.db, "user-subs")).toBe(true);
    const summary = await getSubscriptionSummary(database.db, "user-subs");
    expect(summary).toMatchObject({
      active: false,
      planName: "Free Trial",
      otherSubscriptionActive: true,
      hasBillingAccount: false,
    });
    expect(summary.otherSubscriptions).toEqual([
      { id: "addons-1", itemName: "2 add-ons", kind: "addons", monthlyPrice: 9800, status: "active", active: true },
      {
        id: "dist-1",
        itemName: "AI Distributor Program",
        kind: "distributor",
        monthlyPrice: 19900,
        status: "past_due",
        active: false,
      },
    ]);

    // Manage Billing follows the portal's rule: the user's own Stripe customer row.
    await database.db.insert(billingCustomers).values({ userId: "user-subs", provider: "stripe", customerId: "cus_subs" });
    expect((await getSubscriptionSummary(database.db, "user-subs")).hasBillingAccount).toBe(true);
    expect((await getSubscriptionSummary(database.db, "user-b")).hasBillingAccount).toBe(false);
  });

  it("analytics: 30 continuous days of the user's own events and headline numbers", async () => {
    const now = new Date("2026-03-15T12:00:00Z");
    const empty = await getAccountAnalytics(database.db, "user-b", now);
    expect(empty.days).toHaveLength(30);
    expect(empty.days[0]!.date).toBe("2026-02-14");
    expect(empty.days[29]!.date).toBe("2026-03-15");
    expect(empty).toMatchObject({ totalEvents: 0, dashboardVisits: 0, ticketsOpened: 0, trialDaysLeft: null });

    await database.db.insert(activityEvents).values([
      { userId: "user-a", kind: "dashboard_visit", createdAt: new Date("2026-03-15T08:00:00Z") },
      { userId: "user-a", kind: "dashboard_visit", createdAt: new Date("2026-03-15T09:00:00Z") },
      { userId: "user-a", kind: "trial_started", createdAt: new Date("2026-03-10T09:00:00Z") },
      { userId: "user-a", kind: "dashboard_visit", createdAt: new Date("2026-01-01T09:00:00Z") },
      { userId: "user-b", kind: "dashboard_visit", createdAt: new Date("2026-03-15T09:00:00Z") },
    ]);
    await database.db.insert(trialAccess).values({
      userId: "user-a",
      trialStarted: true,
      trialActivatedAt: new Date("2026-03-10T09:00:00Z"),
      trialEndsAt: new Date("2026-03-17T09:00:00Z"),
      dashboardAccessCount: 4,
    });
    await database.db
      .insert(supportTickets)
      .values({ userId: "user-a", subject: "Hi there", category: "Other", message: "Hello world!" });

    const a = await getAccountAnalytics(database.db, "user-a", now);
    expect(a.totalEvents).toBe(3);
    expect(a.kinds).toEqual(["dashboard_visit", "trial_started"]);
    expect(a.days.find((d) => d.date === "2026-03-15")).toEqual({ date: "2026-03-15", total: 2, byKind: { dashboard_visit: 2 } });
    expect(a.days.find((d) => d.date === "2026-03-10")?.byKind).toEqual({ trial_started: 1 });
    // All of its dashboard_visit events (3, one outside the 30-day chart), not the pre-trial counter.
    expect(a).toMatchObject({ dashboardVisits: 3, ticketsOpened: 1, trialDaysLeft: 2 });
    expect((await getAccountAnalytics(database.db, "user-b", now)).totalEvents).toBe(1);
  });
});
