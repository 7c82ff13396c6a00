import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as settingsAction, loader as settingsLoader } from "~/routes/_dashboard/settings";
import { action as visitAction } from "~/routes/api/dashboard.visit";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import { user, userSettings } from "~/server/db/schema";
import { scheduleOnboardingCall } from "~/server/onboarding/onboarding.server";
import { DEFAULT_SETTINGS, getSettings, rememberTimeZone, saveSettings, saveTimeZone } from "~/server/profile/settings.server";
import { canonicalTimeZone } from "~/lib/time-zone";
import { engine, freshDatabase } from "./support/db";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";
let clients = 0;
const nextIp = () => `10.31.${Math.floor(++clients / 250)}.${clients % 250}`;

/**
 * The customer's time zone: captured from the page's `tz` cookie when the account is made (or at its
 * first dashboard view), never over the customer's own choice, changed on the settings page, and the
 * zone the onboarding call's 14:00 is read in.
 */
describe(`customer time zone (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let n = 0;

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

  const zoneOf = async (userId: string) => (await getSettings(database.db, userId)).timeZone;
  const newUser = async () => {
    const id = `tz-user-${++n}`;
    await database.db.insert(user).values({ id, name: "TZ", email: `tz-${n}@example.com`, emailVerified: true });
    return id;
  };
  /** A verified account made through Better Auth, signed in: its session cookie. */
  const signedUp = async (cookie: string) => {
    const email = `tz-signup-${++n}@example.com`;
    const res = await auth.handler(
      new Request(`${SITE}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { origin: SITE, "content-type": "application/json", "x-client-ip": nextIp(), cookie },
        body: JSON.stringify({ email, password: PASSWORD, name: "Zone Customer" }),
      }),
    );
    expect(res.status).toBe(200);
    const [row] = await database.db.select().from(user).where(eq(user.email, email));
    await database.db.update(user).set({ emailVerified: true }).where(eq(user.id, row!.id));
    const signIn = await auth.handler(
      new Request(`${SITE}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { origin: SITE, "content-type": "application/json", "x-client-ip": nextIp() },
        body: JSON.stringify({ email, password: PASSWORD }),
      }),
    );
    const session = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { id: row!.id, session };
  };

  it("sign-up stores the browser's zone from the page's cookie; a forged one is ignored", async () => {
    expect(await zoneOf((await signedUp("tz=America%2FNew_York")).id)).toBe("America/New_York");
    expect(await zoneOf((await signedUp("tz=Mars%2FOlympus")).id)).toBeNull();
    expect(await zoneOf((await signedUp("")).id)).toBeNull();
  });

  it("the first dashboard view stores the browser's zone only while the account has none", async () => {
    const { id, session } = await signedUp("");
    const visit = (zone: string) =>
      visitAction({
        request: new Request(`${SITE}/api/dashboard/visit`, {
          method: "POST",
          headers: { origin: SITE, "content-type": "application/json", cookie: `${session}; tz=${encodeURIComponent(zone)}` },
          body: JSON.stringify({ path: "/dashboard" }),
        }),
      });
    expect((await visit("Europe/Berlin")).init?.status ?? 200).toBe(200);
    expect(await zoneOf(id)).toBe("Europe/Berlin");
    await visit("Asia/Tokyo");
    expect(await zoneOf(id)).toBe("Europe/Berlin");
  });

  it("a captured zone never replaces the customer's choice; the settings page's choice does", async () => {
    const id = await newUser();
    await rememberTimeZone(database.db, id, "America/Chicago");
    await rememberTimeZone(database.db, id, "Asia/Tokyo");
    expect(await zoneOf(id)).toBe("America/Chicago");
    await saveTimeZone(database.db, id, "Europe/Lisbon");
    expect(await zoneOf(id)).toBe("Europe/Lisbon");
    // Saving the other preferences keeps the zone.
    await saveSettings(database.db, id, { ...DEFAULT_SETTINGS, smsAlerts: true });
    expect(await getSettings(database.db, id)).toMatchObject({ smsAlerts: true, timeZone: "Europe/Lisbon" });
    const rows = await database.db.select().from(userSettings).where(eq(userSettings.userId, id));
    expect(rows).toHaveLength(1);
  });

  it("the settings page shows and changes the zone; an unknown zone is a 400 with the field's message", async () => {
    const { id, session } = await signedUp("tz=America%2FNew_York");
    const post = (timeZone: string) =>
      settingsAction({
        request: new Request(`${SITE}/dashboard/settings`, {
          method: "POST",
          headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", cookie: session },
          body: new URLSearchParams({ intent: "time-zone", timeZone }),
        }),
        params: {},
        context: {},
      } as never) as Promise<{ data: { ok: boolean; errors: Record<string, string> }; init: ResponseInit | null }>;
    const refused = await post("Nowhere/Special");
    expect(refused.init?.status).toBe(400);
    expect(refused.data.errors).toEqual({ timeZone: "Choose a time zone from the list" });
    expect(await zoneOf(id)).toBe("America/New_York");
    const saved = await post("asia/kolkata");
    expect(saved.data.ok).toBe(true);
    // Stored under the runtime's own name for it (Node 20's list still says "Asia/Calcutta").
    const kolkata = canonicalTimeZone("Asia/Kolkata");
    expect(await zoneOf(id)).toBe(kolkata);
    const page = (await settingsLoader({
      request: new Request(`${SITE}/dashboard/settings`, { headers: { cookie: `${session}; tz=America%2FNew_York` } }),
      params: {},
      context: {},
    } as never)) as { timeZone: string; browserTimeZone: string | null; timeZones: string[] };
    expect(page.timeZone).toBe(kolkata);
    expect(page.browserTimeZone).toBe("America/New_York");
    expect(page.timeZones).toContain(kolkata);
  });

  it("the onboarding call is at 14:00 in the customer's zone", async () => {
    const id = await newUser();
    const { at } = await scheduleOnboardingCall(database.db, id, new Date("2026-11-26T15:00:00Z"), "America/New_York");
    expect(at.toISOString()).toBe("2026-11-28T19:00:00.000Z");
  });
});
