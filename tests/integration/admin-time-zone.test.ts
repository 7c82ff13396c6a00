import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as exportLoader } from "~/routes/admin/export";
import { loader as tableLoader } from "~/routes/admin/table";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import { user, userRoles, userSettings } from "~/server/db/schema";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { routeAnswer } from "./support/route";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * The console's date range is in the operator's time zone, the one their account stores (taken from
 * the browser at sign-up, changed on Settings): a day is that zone's midnight to midnight, for the
 * table and its CSV alike. Kiritimati is 14 hours ahead of UTC, so its days and UTC's differ for most
 * of each day.
 */
const SITE = "http://localhost:3000";
const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, url: new URL(request.url), params, context: {} }) as never;
const get = (cookie: string, path: string) => new Request(`${SITE}${path}`, { headers: { cookie } });

describe(`operator console in the operator's time zone (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "tzops",
  );
  const operators: Record<string, string> = {};

  const customers = async (zone: string, range: string) => {
    const page = await routeAnswer<{ rows: { id: string }[]; timeZone: string | null; params: { timeZone: string } }>(
      tableLoader(
        args(get(operators[zone]!, `/admin/customers?q=tz-buyer&${range}&sort=createdAt&dir=asc`), { table: "customers" }),
      ),
    );
    expect(page.status).toBe(200);
    return page.body!;
  };
  const csvIds = async (zone: string, range: string) => {
    const response = await exportLoader(
      args(get(operators[zone]!, `/admin/export/customers?q=tz-buyer&${range}&sort=createdAt&dir=asc`), { table: "customers" }),
    );
    const lines = (await response.text()).trimEnd().split("\r\n").slice(1);
    return lines.map((l) => l.split(",")[0]);
  };

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    for (const zone of ["UTC", "Pacific/Kiritimati"]) {
      const ops = await newCustomer();
      await database.db.insert(userRoles).values({ userId: ops.id, role: "operator" });
      await database.db
        .insert(userSettings)
        .values({ userId: ops.id, timeZone: zone })
        .onConflictDoUpdate({ target: userSettings.userId, set: { timeZone: zone } });
      operators[zone] = (await enrolTwoFactor(auth, ops.cookie, "correct-horse-battery")).cookie;
    }
    await database.db.insert(user).values([
      // 23:00 on Mar 10 in Kiritimati; 09:00 on Mar 10 in UTC.
      { id: "tz-buyer-late", name: "Late", email: "tz-buyer-late@shop.example", createdAt: new Date("2026-03-10T09:00:00Z") },
      // 01:00 on Mar 11 in Kiritimati; 11:00 on Mar 10 in UTC.
      { id: "tz-buyer-next", name: "Next", email: "tz-buyer-next@shop.example", createdAt: new Date("2026-03-10T11:00:00Z") },
    ]);
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("reads a day range as the operator's days, in the table and in its CSV", async () => {
    const utc = await customers("UTC", "from=2026-03-10&to=2026-03-10");
    expect(utc.rows.map((r) => r.id)).toEqual(["tz-buyer-late", "tz-buyer-next"]);
    expect(utc.params.timeZone).toBe("UTC");

    const far = await customers("Pacific/Kiritimati", "from=2026-03-10&to=2026-03-10");
    expect(far.rows.map((r) => r.id)).toEqual(["tz-buyer-late"]);
    expect(far).toMatchObject({ timeZone: "Pacific/Kiritimati", params: { timeZone: "Pacific/Kiritimati" } });
    expect((await customers("Pacific/Kiritimati", "from=2026-03-11")).rows.map((r) => r.id)).toEqual(["tz-buyer-next"]);
    expect((await customers("UTC", "from=2026-03-11")).rows).toEqual([]);

    expect(await csvIds("Pacific/Kiritimati", "from=2026-03-10&to=2026-03-10")).toEqual(["tz-buyer-late"]);
    expect(await csvIds("UTC", "from=2026-03-10&to=2026-03-10")).toEqual(["tz-buyer-late", "tz-buyer-next"]);
  });
});
