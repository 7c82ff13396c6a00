import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as visitAction } from "~/routes/api/dashboard.visit";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import { trialAccess } from "~/server/db/schema";
import { startTrial } from "~/server/trial/trial.server";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs, SITE } from "./support/route";

process.env.LOG_LEVEL ??= "error";

/** The visit a dashboard page reports, from the signed-in browser of `cookie`. */
const visit = (cookie: string) =>
  routeAnswer<{ ok: boolean; previewSeconds: number | null }>(
    visitAction(
      routeArgs(
        new Request(`${SITE}/api/dashboard/visit`, {
          method: "POST",
          headers: { origin: SITE, "content-type": "application/json", cookie },
          body: JSON.stringify({ path: "/dashboard" }),
        }),
      ),
    ),
  );

/**
 * The visit a dashboard page reports answers with the free preview's seconds left by the server's
 * clock, counted from the first visit: the page counts down from that figure rather than from when
 * it rendered, so a slow report cannot leave the page ahead of what a reload shows.
 */
describe(`dashboard visit answer (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "visit",
  );

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

  it("the first visit starts the preview and answers its 15 seconds; a later one answers what is left", async () => {
    const { id, cookie } = await customer();
    expect(await visit(cookie)).toEqual({ status: 200, body: { ok: true, previewSeconds: 15 } });
    // Six seconds later (the stored start moved back instead of waiting).
    await database.db
      .update(trialAccess)
      .set({ previewStartedAt: new Date(Date.now() - 6_000) })
      .where(eq(trialAccess.userId, id));
    expect(await visit(cookie)).toEqual({ status: 200, body: { ok: true, previewSeconds: 9 } });
    await database.db
      .update(trialAccess)
      .set({ previewStartedAt: new Date(Date.now() - 60_000) })
      .where(eq(trialAccess.userId, id));
    expect(await visit(cookie)).toEqual({ status: 200, body: { ok: true, previewSeconds: 0 } });
  });

  it("with the trial started there is no preview to count", async () => {
    const { id, cookie } = await customer();
    expect((await startTrial(database.db, id, "starter")).ok).toBe(true);
    expect(await visit(cookie)).toEqual({ status: 200, body: { ok: true, previewSeconds: null } });
  });
});
