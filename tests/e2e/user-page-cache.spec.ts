import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { signedInContext } from "./support/customer";

// The signed-in page cache (ADR 0017, session 16) against the built server: a page is served from
// memory only to its own session, only while the session lives, and never once its data changed.

const hit = (res: APIResponse) => res.headers()["x-page-cache"] === "hit";

/** GETs `path` until it is answered from the cache (the first view stores it once rendered). */
async function storedView(get: () => Promise<APIResponse>): Promise<APIResponse> {
  for (let i = 0; i < 50; i++) {
    const res = await get();
    expect(res.status()).toBe(200);
    if (hit(res)) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the page was never answered from the cache");
}

test("a stored dashboard page: its own session only, new data at once, nothing after sign-out", async ({ browser }) => {
  const ann = await signedInContext(browser, "upc-ann", { trial: true });
  const bob = await signedInContext(browser, "upc-bob", { trial: true });
  const annSupport = () => ann.context.request.get("/dashboard/support", { maxRedirects: 0 });

  const cached = await storedView(annSupport);
  expect(await cached.text()).toContain(ann.email);
  // Its CSP allows the page's inline scripts by hash: a stored copy never reuses a nonce.
  expect(cached.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
  expect(await cached.text()).not.toMatch(/ nonce="/);
  // No other cache keeps an account's page.
  expect(cached.headers()["cache-control"]).toBe("private, no-store");

  // Another account asking for the same URL gets its own page.
  const bobs = await bob.context.request.get("/dashboard/support");
  expect(await bobs.text()).toContain(bob.email);
  expect(await bobs.text()).not.toContain(ann.email);

  // A new ticket shows on the next view: the write bumped the account's version.
  const subject = `Cache check ${Date.now()}`;
  const created = await ann.context.request.post("/dashboard/support", {
    headers: { Origin: siteOrigin() },
    form: { intent: "create-ticket", subject, category: "Technical", message: "Does the new ticket show at once?" },
  });
  expect(created.status()).toBe(200);
  const after = await annSupport();
  expect(hit(after)).toBe(false);
  expect(await after.text()).toContain(subject);
  // Bob's stored page did not change with Ann's data.
  expect(await (await storedView(() => bob.context.request.get("/dashboard/support"))).text()).not.toContain(subject);

  // Signing out ends the copy too: the old cookie, replayed, is sent to sign in.
  const stored = await storedView(annSupport);
  expect(await stored.text()).toContain(subject);
  const cookie = (await ann.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const out = await ann.context.request.post("/dashboard", {
    headers: { Origin: siteOrigin() },
    form: { intent: "sign-out" },
    maxRedirects: 0,
  });
  expect(out.status()).toBe(302);
  const replay = await playwrightRequest.newContext({ baseURL: siteOrigin(), extraHTTPHeaders: { cookie } });
  const replayed = await replay.get("/dashboard/support", { maxRedirects: 0 });
  expect(hit(replayed)).toBe(false);
  expect(replayed.status()).toBe(302);
  expect(replayed.headers()["location"]).toMatch(/^\/auth/);
  await replay.dispose();
  await ann.context.close();
  await bob.context.close();
});
