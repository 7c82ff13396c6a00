import { expect, test } from "@playwright/test";
import { siteOrigin } from "./support/auth";
import { signedInContext } from "./support/customer";

// Signed-in pages are rendered for each request (docs/decisions/0046-signed-in-pages-render-every-request.md):
// each account sees its own data, a write shows on the next view, and no cache keeps the page.

test("a dashboard page: each account's own data, new data on the next view, never kept by a cache", async ({ browser }) => {
  const ann = await signedInContext(browser, "own-ann", { trial: true });
  const bob = await signedInContext(browser, "own-bob", { trial: true });
  const annSupport = () => ann.context.request.get("/dashboard/support", { maxRedirects: 0 });

  const first = await annSupport();
  expect(first.status()).toBe(200);
  expect(await first.text()).toContain(ann.email);
  expect(first.headers()["cache-control"]).toBe("private, no-store");
  expect(first.headers()["x-page-cache"]).toBeUndefined();

  // Another account asking for the same URL gets its own page.
  const bobs = await bob.context.request.get("/dashboard/support");
  expect(await bobs.text()).toContain(bob.email);
  expect(await bobs.text()).not.toContain(ann.email);

  // A new ticket shows on the next view, and only on its account's page.
  const subject = `Own data check ${Date.now()}`;
  const created = await ann.context.request.post("/dashboard/support", {
    headers: { Origin: siteOrigin() },
    form: { intent: "create-ticket", subject, category: "Technical", message: "Does the new ticket show at once?" },
  });
  expect(created.status()).toBe(200);
  expect(await (await annSupport()).text()).toContain(subject);
  expect(await (await bob.context.request.get("/dashboard/support")).text()).not.toContain(subject);
  await ann.context.close();
  await bob.context.close();
});
