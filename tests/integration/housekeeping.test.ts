import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPIRED_KEEP_MS, pruneExpiredRows, RATE_LIMIT_KEEP_MS } from "~/server/db/housekeeping.server";
import { limitCounters, rateLimit, session, user, verification } from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

const minutes = (m: number) => m * 60_000;

describe(`pruning rows nothing reads any more (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("deletes rate-limit counters past every window and sessions and tokens a day past expiry, and nothing else", async () => {
    const db = database.db;
    const now = Date.now();
    await db.insert(rateLimit).values([
      { id: "rl-old", key: "203.0.113.9|/sign-in/email", count: 3, lastRequest: now - RATE_LIMIT_KEEP_MS - minutes(1) },
      { id: "rl-recent", key: "198.51.100.7|/sign-in/email", count: 5, lastRequest: now - minutes(9) },
      { id: "rl-now", key: "203.0.113.9|/sign-up/email", count: 1, lastRequest: now },
    ]);
    await db.insert(limitCounters).values([
      { key: "lead:ip:198.51.100.6:600", count: 5, expiresAt: now - minutes(1) },
      { key: "lead:ip:198.51.100.7:600", count: 5, expiresAt: now + minutes(1) },
      // A day-long window that began hours ago is still counting.
      { key: "support-ticket:account:u-prune:86400", count: 30, expiresAt: now + minutes(600) },
    ]);
    await db.insert(user).values({ id: "u-prune", name: "P", email: "prune@example.com", emailVerified: true });
    const at = (ms: number) => new Date(now + ms);
    await db.insert(session).values([
      { id: "s-long-expired", token: "t1", userId: "u-prune", expiresAt: at(-EXPIRED_KEEP_MS - minutes(1)) },
      { id: "s-just-expired", token: "t2", userId: "u-prune", expiresAt: at(-minutes(5)) },
      { id: "s-valid", token: "t3", userId: "u-prune", expiresAt: at(minutes(60)) },
    ]);
    await db.insert(verification).values([
      { id: "v-long-expired", identifier: "reset-password:x", value: "u-prune", expiresAt: at(-EXPIRED_KEEP_MS - minutes(1)) },
      { id: "v-valid", identifier: "reset-password:y", value: "u-prune", expiresAt: at(minutes(60)) },
    ]);

    expect(await pruneExpiredRows(db, now)).toEqual({ rateLimits: 2, sessions: 1, verifications: 1 });
    expect((await db.select({ id: rateLimit.id }).from(rateLimit)).map((r) => r.id).sort()).toEqual(["rl-now", "rl-recent"]);
    expect((await db.select({ key: limitCounters.key }).from(limitCounters)).map((r) => r.key).sort()).toEqual([
      "lead:ip:198.51.100.7:600",
      "support-ticket:account:u-prune:86400",
    ]);
    expect((await db.select({ id: session.id }).from(session)).map((r) => r.id).sort()).toEqual(["s-just-expired", "s-valid"]);
    expect((await db.select({ id: verification.id }).from(verification)).map((r) => r.id)).toEqual(["v-valid"]);
    // Nothing left to prune.
    expect(await pruneExpiredRows(db, now)).toEqual({ rateLimits: 0, sessions: 0, verifications: 0 });
  });
});
