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
