import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as distributorSuccessLoader } from "~/routes/_marketing/distributor-success";
import { loader as paymentSuccessLoader } from "~/routes/_marketing/payment-success";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { declineOrder } from "~/server/billing/decline-order.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";
import { routeAnswer } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";

const args = (path: string, cookie?: string) => {
  const request = new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });
  return { request, url: new URL(request.url), params: {}, context: {} } as never;
};
const paymentSuccess = (sessionId: string | null, cookie?: string) =>
  routeAnswer(
    paymentSuccessLoader(args(sessionId === null ? "/payment-success" : `/payment-success?session_id=${sessionId}`, cookie)),
  );
const distributorSuccess = (sessionId: string | null, cookie?: string) =>
  routeAnswer(
    distributorSuccessLoader(
      args(sessionId === null ? "/distributor-success" : `/distributor-success?session_id=${sessionId}`, cookie),
    ),
  );

const NOT_FOUND = { status: 404, body: { view: "not-found" } };

/**
 * The checkout return pages confirm only real payments: the signed-in customer's own order that is
 * paid (or whose free trial has started). Any other id is not found (404); an unpaid order says it
 * is pending or declined; a signed-out visitor is asked to sign in and come back to the same page.
 */
describe(`checkout return pages (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let clients = 0;

  const authPost = (path: string, body: Record<string, unknown>) =>
    auth.handler(
      new Request(`${SITE}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: SITE, "x-client-ip": `10.12.0.${++clients}` },
        body: JSON.stringify(body),
      }),
    );

  /** A verified, signed-in customer: its id, email and session cookie. */
  const customer = async (name: string) => {
    const email = `return-${name}@example.com`;
    expect((await authPost("/sign-up/email", { email, password: PASSWORD, name })).status).toBe(200);
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
    const signedIn = await authPost("/sign-in/email", { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const [row] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
    return { id: row!.id, email, cookie };
  };

  let owner: Awaited<ReturnType<typeof customer>>;
  let stranger: Awaited<ReturnType<typeof customer>>;
  const sessions = {} as Record<"paid" | "trial" | "pending" | "declined" | "failed" | "distPaid" | "distPending", string>;

  /** The owner's order on /payment-success: its status, after checking it is shown as that order. */
  const status = async (id: string) => {
    const { status: code, body } = await paymentSuccess(id, owner.cookie);
    expect(code).toBe(200);
    expect(body).toMatchObject({ view: "order", orderId: id });
    return (body!.order as { status: string }).status;
  };

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    await seedCatalogue(database.db);
    owner = await customer("owner");
    stranger = await customer("stranger");

    const app = (appId: number, tab: "base" | "standard" | "express" | "monthly") =>
      createCheckout(database.db, owner, { kind: "app", appId, tab }).then((r) => r.sessionId);
    sessions.paid = await app(1, "base");
    await fulfilOrder(database.db, sessions.paid);
    sessions.trial = await app(2, "monthly");
    await fulfilOrder(database.db, sessions.trial, { paymentRef: null });
    sessions.pending = await app(3, "standard");
    sessions.declined = await app(4, "express");
    await declineOrder(database.db, owner.id, sessions.declined);
    sessions.failed = await app(5, "base");
    await database.db.update(schema.orders).set({ status: "failed" }).where(eq(schema.orders.providerSessionId, sessions.failed));

    const distributor = { kind: "distributor", email: owner.email, fullName: "Dana Owner", businessName: "Owner Co" } as const;
    sessions.distPending = (await createCheckout(database.db, owner, distributor)).sessionId;
    // A second checkout of the program answers the same open order; pay a copy made for the paid case.
    sessions.distPaid = `${sessions.distPending}_paid`;
    const [open] = await database.db
      .select()
      .from(schema.orders)
      .where(eq(schema.orders.providerSessionId, sessions.distPending));
    await database.db.insert(schema.orders).values({ ...open!, id: `${open!.id}-paid`, providerSessionId: sessions.distPaid });
    await fulfilOrder(database.db, sessions.distPaid);
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  describe("/payment-success", () => {
    it("an unknown id, no id or a malformed one is not found (404), for a customer and without a session id", async () => {
      const ids = ["bogus123", null, "", "cs%20test", "a".repeat(201)];
      expect(await Promise.all(ids.map((id) => paymentSuccess(id, owner.cookie)))).toEqual(ids.map(() => NOT_FOUND));
      expect(await paymentSuccess(null)).toEqual(NOT_FOUND);
    });

    it("another customer's order is not found, whatever its status", async () => {
      const ids = Object.values(sessions);
      expect(await Promise.all(ids.map((id) => paymentSuccess(id, stranger.cookie)))).toEqual(ids.map(() => NOT_FOUND));
    });

    it("signed out: sign in to see the order, coming back to the same page; nothing about the order", async () => {
      for (const id of [sessions.paid, "bogus123"]) {
        const { status, body } = await paymentSuccess(id);
        expect(status).toBe(200);
        expect(body).toEqual({
          view: "sign-in",
          signInHref: `/auth?next=${encodeURIComponent(`/payment-success?session_id=${id}`)}`,
        });
      }
    });

    it("the owner's orders by status: paid and trial started are confirmed, pending and declined say so", async () => {
      expect(await status(sessions.paid)).toBe("Paid");
      expect(await status(sessions.trial)).toBe("Trial");
      expect(await status(sessions.pending)).toBe("Pending");
      expect(await status(sessions.declined)).toBe("Declined");
      expect(await status(sessions.failed)).toBe("Declined");
    });
  });

  describe("/distributor-success", () => {
    it("an unknown id, no id, another kind of order or another customer's order is not found (404)", async () => {
      const own = ["bogus123", null, sessions.paid];
      expect(await Promise.all(own.map((id) => distributorSuccess(id, owner.cookie)))).toEqual(own.map(() => NOT_FOUND));
      const foreign = [sessions.distPaid, sessions.distPending];
      expect(await Promise.all(foreign.map((id) => distributorSuccess(id, stranger.cookie)))).toEqual(
        foreign.map(() => NOT_FOUND),
      );
      expect(await distributorSuccess(null)).toEqual(NOT_FOUND);
    });

    it("signed out: sign in to see the order, coming back to the same page", async () => {
      expect(await distributorSuccess(sessions.distPaid)).toEqual({
        status: 200,
        body: {
          view: "sign-in",
          signInHref: `/auth?next=${encodeURIComponent(`/distributor-success?session_id=${sessions.distPaid}`)}`,
        },
      });
    });

    it("the owner's paid order (its trial started) is welcomed; a pending one is confirming; a declined one says so", async () => {
      expect(await distributorSuccess(sessions.distPaid, owner.cookie)).toMatchObject({
        status: 200,
        body: { view: "paid", order: { fullName: "Dana Owner", businessName: "Owner Co", trialDays: 7 } },
      });
      expect(await distributorSuccess(sessions.distPending, owner.cookie)).toEqual({ status: 200, body: { view: "pending" } });
      await declineOrder(database.db, owner.id, sessions.distPending);
      expect(await distributorSuccess(sessions.distPending, owner.cookie)).toEqual({
        status: 200,
        body: { view: "ended", ended: "declined" },
      });
    });
  });
});
