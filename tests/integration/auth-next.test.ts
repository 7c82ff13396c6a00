import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/auth";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { mailOutbox } from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";
let clients = 0;
/** A client address of its own for every request: the per-IP sign-in limit never couples them. */
const nextIp = () => `10.21.${Math.floor(++clients / 250)}.${clients % 250}`;

/**
 * The /auth form's sign-in, posted as the page posts it: to the page's own address, with `next` in
 * the hidden field the page fills from its query string.
 */
async function signIn(email: string, password: string, page: string, headers: Record<string, string> = {}) {
  const next = new URL(page, SITE).searchParams.get("next") ?? "";
  const request = new Request(new URL(page, SITE), {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", "x-client-ip": nextIp(), ...headers },
    body: new URLSearchParams({ intent: "signin", email, password, next }),
  });
  let result: unknown;
  try {
    result = await authAction({ request, params: {}, context: {} } as never);
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), message: null };
  const { data, init } = result as { data: { message?: string }; init: ResponseInit | null };
  return { status: init?.status ?? 200, location: null, message: data.message ?? null };
}

/**
 * The sign-in page's `next` decides only where a signed-in customer lands: whatever it holds, the
 * right password signs in, and a `next` that could leave the site, or that Better Auth's callback
 * check would refuse (an encoded slash), lands on /dashboard.
 */
describe(`sign-in with any next (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const email = "next-spellings@example.com";

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    await auth.api.signUpEmail({ body: { email, password: PASSWORD, name: "Next Spellings" } });
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  const home = "/dashboard?toast=welcome-back";
  const cases: [page: string, lands: string][] = [
    ["/auth?next=%2Fdashboard%2Fbilling%3Fx%3D1", "/dashboard/billing?x=1&toast=welcome-back"],
    ["/auth?next=/dashboard/billing?x=1", "/dashboard/billing?x=1&toast=welcome-back"],
    // The page decodes its query once: these give the form `/dashboard/billing`.
    ["/auth?next=%2Fdashboard%2Fbilling", "/dashboard/billing?toast=welcome-back"],
    ["/auth?next=/dashboard%2Fbilling", "/dashboard/billing?toast=welcome-back"],
    ["/auth?next=/dashboard%2fbilling", "/dashboard/billing?toast=welcome-back"],
    // ...and these an encoded separator in the path, which no page of ours has.
    ["/auth?next=%2Fdashboard%252Fbilling", home],
    ["/auth?next=/dashboard%252fbilling", home],
    ["/auth?next=/dashboard%255Cbilling", home],
    ["/auth?next=/%252F%252Fevil.example", home],
    ["/auth?next=%252Fdashboard", home],
    // Anything that leaves the site.
    ["/auth?next=//evil.example", home],
    ["/auth?next=%2F%2Fevil.example", home],
    ["/auth?next=/%5Cevil.example", home],
    ["/auth?next=https://evil.example", home],
    ["/auth?next=https%3A%2F%2Fevil.example%2Fdashboard", home],
    // Pages other than the dashboard get their own address back; an encoded slash in the query is data.
    ["/auth?next=%2Fapps%3Fq%3Dcrm%26industry%3Dretail", "/apps?q=crm&industry=retail"],
    ["/auth?next=%2Fdashboard%2Fbilling%3Fback%3D%252Fapps", "/dashboard/billing?back=%2Fapps&toast=welcome-back"],
  ];
  for (const [page, lands] of cases) {
    it(`${page}: the right password signs in and lands on ${lands}`, async () => {
      expect(await signIn(email, PASSWORD, page)).toEqual({ status: 302, location: lands, message: null });
    });
  }

  it("a wrong password is still 'Invalid email or password', whatever the next", async () => {
    for (const page of ["/auth?next=/dashboard%252Fbilling", "/auth?next=/dashboard/billing"]) {
      expect(await signIn(email, "not-the-password", page)).toEqual({
        status: 401,
        location: null,
        message: "Invalid email or password",
      });
    }
  });

  it("a refusal that comes before the password check is not reported as a wrong password", async () => {
    // Better Auth refuses a foreign Origin when cookies are sent (the server's own Origin check
    // answers such a post first; here the action is called directly).
    const refused = await signIn(email, PASSWORD, "/auth?next=/dashboard", { origin: "https://evil.example", cookie: "a=1" });
    expect(refused).toEqual({ status: 403, location: null, message: "Something went wrong. Please try again." });
  });
});

/** The /auth form's sign-up, posted as the page posts it, with the `next` its hidden field holds. */
async function signUp(email: string, next: string | null) {
  const fields: Record<string, string> = {
    intent: "signup",
    email,
    password: PASSWORD,
    firstName: "Return",
    lastName: "Visitor",
  };
  if (next !== null) fields.next = next;
  const request = new Request(new URL(`/auth?tab=signup`, SITE), {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", "x-client-ip": nextIp() },
    body: new URLSearchParams(fields),
  });
  const result = (await authAction({ request, params: {}, context: {} } as never)) as {
    data: { ok: boolean; returnsTo?: string };
    init: ResponseInit | null;
  };
  return { status: result.init?.status ?? 200, ...result.data };
}

/**
 * Sign-up keeps where the visitor was going: the verification link signs the new customer in and
 * lands on the page of the trial or buy button they pressed (with its choices), never off the site.
 */
describe(`sign-up with a next (${engine})`, () => {
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

  const mailsTo = (email: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
  const linkIn = async (email: string, subject: RegExp) => {
    const mail = (await mailsTo(email)).find((m) => subject.test(m.subject));
    return mail?.text.match(/https?:\/\/\S+/)?.[0] ?? null;
  };
  /** Opens the emailed verification link: where it lands, and whether it signed in. */
  const verify = async (email: string) => {
    const link = await linkIn(email, /verify/i);
    expect(link).not.toBeNull();
    const answer = await auth.handler(new Request(link!, { headers: { "x-client-ip": nextIp() } }));
    return { status: answer.status, location: answer.headers.get("location"), cookies: answer.headers.getSetCookie().join(";") };
  };

  const cases: [next: string | null, lands: string][] = [
    ["/packages?industry=healthcare&goal=save-time&timeline=rush", "/packages?industry=healthcare&goal=save-time&timeline=rush"],
    ["/apps?q=crm&industry=Retail&tab=express&view=list", "/apps?q=crm&industry=Retail&tab=express&view=list"],
    ["/distributors", "/distributors"],
    ["/dashboard/billing", "/dashboard/billing?toast=account-created"],
    [null, "/dashboard?toast=account-created"],
    ["https://evil.example/packages", "/dashboard?toast=account-created"],
    ["//evil.example", "/dashboard?toast=account-created"],
    ["/%2F%2Fevil.example", "/dashboard?toast=account-created"],
  ];
  for (const [next, lands] of cases) {
    it(`next=${next ?? "(none)"}: the verification link signs in and lands on ${lands}`, async () => {
      const email = `return-${++n}@example.com`;
      const answer = await signUp(email, next);
      expect(answer).toMatchObject({ status: 200, ok: true, returnsTo: lands.startsWith("/dashboard?") ? "dashboard" : "page" });
      expect(await verify(email)).toEqual({ status: 302, location: lands, cookies: expect.stringMatching(/session_token=/) });
    });
  }

  it("a sign-up with an address that has an account emails its owner a sign-in link that keeps the page", async () => {
    const email = `taken-${++n}@example.com`;
    await signUp(email, null);
    await verify(email);
    const next = "/packages?industry=retail&goal=more-sales&timeline=standard";
    expect(await signUp(email, next)).toMatchObject({ status: 200, ok: true });
    expect(await linkIn(email, /already have an account/i)).toBe(`${SITE}/auth?next=${encodeURIComponent(next)}`);
  });
});
