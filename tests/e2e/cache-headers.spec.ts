import { expect, test, type APIRequestContext } from "@playwright/test";
import { createVerifiedAccount, freshIp, raw } from "./support/loopback";

/**
 * Cache-Control for a CDN or the proxy's cache in front (docs/decisions/0070-shared-cache-headers.md):
 * only a stored anonymous page (hash CSP, no cookie, 200) is public; everything else is private.
 */
const SHARED = /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/;

/** Asks until the page cache answers (it stores a page on its second render, a moment after sending it). */
async function cachedResponse(request: APIRequestContext, url: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await request.get(url);
    if (res.headers()["x-page-cache"] === "hit") return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} was never served from the page cache`);
}

test("stored anonymous marketing pages are public for a shared cache; their first render is private", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const appPage = new URL(/<loc>([^<]*\/apps\/[a-z0-9-]+)<\/loc>/.exec(sitemap)![1]!).pathname;
  for (const url of ["/?from=cache-headers", "/apps?from=cache-headers", `${appPage}?from=cache-headers`]) {
    const first = await request.get(url);
    expect(first.status(), url).toBe(200);
    expect(first.headers()["cache-control"], url).toBe("private, no-cache");
    expect(first.headers()["content-security-policy"], url).toMatch(/'nonce-/);

    const hit = await cachedResponse(request, url);
    const h = hit.headers();
    expect(h["cache-control"], url).toMatch(SHARED);
    expect(h["content-security-policy"], url).not.toContain("nonce");
    expect(h["set-cookie"], url).toBeUndefined();
    expect(h["vary"], url).toBe("Accept-Encoding");
    // A revalidation's 304 carries the same directives.
    const notModified = await request.get(url, { headers: { "If-None-Match": h["etag"]! } });
    expect(notModified.status(), url).toBe(304);
    expect(notModified.headers()["cache-control"], url).toMatch(SHARED);
  }
});

test("a request with a session cookie, the dashboard, /auth, a 404 and POST answers are never public", async ({
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const { cookie } = await createVerifiedAccount(`cache-${Date.now()}@example.com`, "correct-horse-battery", origin);
  const ip = freshIp();

  await cachedResponse(request, "/apps?from=cache-signed-in");
  const signedIn = await raw({ path: "/apps?from=cache-signed-in", ip, headers: { cookie } });
  expect(signedIn.status).toBe(200);
  expect(signedIn.headers["x-page-cache"]).toBeUndefined();
  expect(signedIn.headers["cache-control"]).toBe("private, no-cache");

  const dashboard = await raw({ path: "/dashboard", ip, headers: { cookie } });
  expect(dashboard.headers["cache-control"]).toBe("private, no-store");

  for (const path of ["/auth", "/auth?mode=signup", "/does-not-exist", "/dashboard"]) {
    await request.get(path);
    const again = await request.get(path, { maxRedirects: 0 });
    expect(again.headers()["cache-control"] ?? "", path).not.toContain("public");
    expect(again.headers()["cache-control"] ?? "", path).toMatch(/private|no-store/);
  }
  const missing = await request.get("/does-not-exist");
  expect(missing.status()).toBe(404);

  const posted = await raw({ method: "POST", path: "/api/callback", ip, headers: { origin }, body: { firstName: "" } });
  expect(posted.status).toBe(400);
  expect(posted.headers["cache-control"]).toBe("no-store");
  const form = await raw({
    method: "POST",
    path: "/live-training",
    ip,
    headers: { origin, "content-type": "application/x-www-form-urlencoded" },
    body: "firstName=",
  });
  expect(form.headers["cache-control"] ?? "").not.toContain("public");
});
