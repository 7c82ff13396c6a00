import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth, type Auth } from "~/server/auth/auth.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

/**
 * The sign-up API's name fields (found by tests/fuzz/fuzz.js): Better Auth does not type-check
 * additional fields, so a number or an object reached the `text` columns; NUL cannot be stored.
 * Each bad body is a 400 and creates no user.
 */
describe(`sign-up name fields (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let n = 0;

  const signUp = (fields: Record<string, unknown>) => {
    n += 1;
    const email = `fields-${n}@example.com`;
    const res = auth.handler(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-client-ip": `10.9.0.${n}` },
        body: JSON.stringify({ email, password: "correct-horse-battery", name: "Name", ...fields }),
      }),
    );
    return { email, res };
  };
  const userCount = async (email: string) =>
    (await database.db.select().from(schema.user).where(eq(schema.user.email, email))).length;

  beforeAll(async () => {
    database = await freshDatabase();
    auth = createAuth(database.db, "x".repeat(40));
  });
  afterAll(async () => {
    await database?.cleanup();
  });

  it("refuses names that are not text, or hold control characters or lone surrogates", async () => {
    for (const fields of [
      { firstName: 5 },
      { lastName: {} },
      { companyName: [] },
      { firstName: true },
      { name: "a\u0000b" },
      { firstName: "x\u0000" },
      { lastName: "\uD800" },
    ]) {
      const { email, res } = signUp(fields);
      const answer = await res;
      expect({ fields, status: answer.status }).toEqual({ fields, status: 400 });
      expect(await userCount(email)).toBe(0);
    }
  });

  it("accepts ordinary names and omitted optional ones", async () => {
    for (const fields of [{ firstName: "Zoë", lastName: "O'Brien", companyName: "Acme & Co" }, {}]) {
      const { email, res } = signUp(fields);
      expect((await res).status).toBe(200);
      expect(await userCount(email)).toBe(1);
    }
  });
});

const updateHeaders = (extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  origin: "http://localhost:3000",
  "x-client-ip": "10.9.1.1",
  ...extra,
});

/**
 * The same limits on `/api/auth/update-user`, a signed-in user's own record (found when the fuzzer
 * began covering every Better Auth endpoint): it stored a 5,000-character name and a `javascript:`
 * image URL, and `{"name": null}` was a 500. Each bad body is a 400 and leaves the row as it was.
 */
describe(`update-user fields (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let cookie = "";
  const email = "update-fields@example.com";
  const post = (path: string, body: Record<string, unknown>, extra?: Record<string, string>) =>
    auth.handler(
      new Request(`http://localhost:3000/api/auth${path}`, {
        method: "POST",
        headers: updateHeaders(extra),
        body: JSON.stringify(body),
      }),
    );
  const stored = async () => {
    const [row] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
    return row && { name: row.name, firstName: row.firstName, lastName: row.lastName, image: row.image };
  };

  beforeAll(async () => {
    database = await freshDatabase();
    auth = createAuth(database.db, "x".repeat(40));
    const password = "correct-horse-battery";
    const signedUp = await post("/sign-up/email", { email, password, name: "Before Name", firstName: "Before" });
    if (signedUp.status !== 200) throw new Error(`sign-up failed: ${signedUp.status}`);
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
    const signedIn = await post("/sign-in/email", { email, password });
    if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status}`);
    cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  });
  afterAll(async () => {
    await database?.cleanup();
  });

  it("refuses a missing, blank or oversize name, oversize parts, wrong types and a picture URL", async () => {
    const before = await stored();
    for (const fields of [
      { name: null },
      { name: "   " },
      { name: "A".repeat(257) },
      { firstName: "B".repeat(101) },
      { companyName: 5 },
      { image: "javascript:alert(1)" },
    ]) {
      const answer = await post("/update-user", fields, { cookie });
      expect({ fields: Object.keys(fields), status: answer.status }).toEqual({ fields: Object.keys(fields), status: 400 });
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses a NUL in any token or id with 400, not a failed query and a 500", async () => {
    for (const [endpoint, body] of [
      ["/revoke-session", { token: "abc\u0000def" }],
      ["/reset-password", { token: "\u0000", newPassword: "another-long-password" }],
      ["/unlink-account", { providerId: "google\u0000" }],
    ] as const) {
      const answer = await post(endpoint, body, { cookie });
      expect({ endpoint, status: answer.status }).toEqual({ endpoint, status: 400 });
    }
    const link = await auth.handler(new Request("http://localhost:3000/api/auth/reset-password/%00?callbackURL=/auth"));
    expect(link.status).toBeLessThan(500);
  });

  it("stores an ordinary change", async () => {
    const answer = await post("/update-user", { name: "After Name", firstName: "After", lastName: null }, { cookie });
    expect(answer.status).toBe(200);
    expect(await stored()).toEqual({ name: "After Name", firstName: "After", lastName: null, image: null });
  });
});
