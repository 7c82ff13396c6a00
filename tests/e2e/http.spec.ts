import { createHash } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { signUpVerified } from "./support/auth";
import { raw } from "./support/loopback";

const buildDir = path.resolve(process.env.BUILD_DIR || "build");

test("GET /healthz answers ok with the database kind", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", database: "pglite" });
});

test("every response carries the security headers", async ({ request }) => {
  for (const url of ["/", "/apps", "/does-not-exist", "/robots.txt", "/healthz"]) {
    const res = await request.get(url);
    const h = res.headers();
    expect(h["content-security-policy"], url).toContain("object-src 'none'");
    expect(h["content-security-policy"], url).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"], url).toContain("base-uri 'self'");
    expect(h["content-security-policy"], url).toMatch(/frame-src http:\/\/127\.0\.0\.1:\d+(;|$)/);
    // A fresh render carries a per-response nonce; a page served from the page cache names its
    // inline scripts by hash instead (docs/decisions/0015).
    expect(h["content-security-policy"], url).toMatch(
      /script-src 'self' ('nonce-[A-Za-z0-9+/=]{24}'|('sha256-[A-Za-z0-9+/=]{44}' ?)+);/,
    );
    expect(h["content-security-policy"], url).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(h["x-content-type-options"], url).toBe("nosniff");
    expect(h["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
    expect(h["x-powered-by"], url).toBeUndefined();
  }
});

test("pages are compressed and hashed assets are cached immutably", async ({ request }) => {
  const page = await request.get("/", { headers: { "Accept-Encoding": "gzip" } });
  expect(page.headers()["content-encoding"]).toBe("gzip");
  const asset = readdirSync(path.join(buildDir, "client/assets")).find((f) => f.startsWith("entry.client") && f.endsWith(".js"));
  expect(asset).toBeTruthy();
  const res = await request.get(`/assets/${asset}`);
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  // The build keeps Vite's manifest for the home page's islands script (ADR 0019); it is not public.
  expect(existsSync(path.join(buildDir, "client/.vite/manifest.json"))).toBe(true);
  expect((await request.get("/.vite/manifest.json")).status()).toBe(404);
  // The files of public/ are served as they are, cached for an hour.
  const favicon = await request.get("/favicon.svg");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
  expect(favicon.headers()["cache-control"]).toBe("public, max-age=3600");
});

test("unknown paths answer 404 with the not-found page", async ({ request }) => {
  const res = await request.get("/no/such/page");
  expect(res.status()).toBe(404);
  expect(await res.text()).toContain("Oops! Page not found");
});

test("robots.txt and sitemap.xml list the public site", async ({ request, baseURL }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.headers()["content-type"]).toContain("text/plain");
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  const xml = await sitemap.text();
  for (const p of ["/", "/apps", "/packages", "/industries", "/live-training"])
    expect(xml).toContain(`<loc>${baseURL}${p}</loc>`);
});

test("noindex pages can be crawled, and name no canonical URL", async ({ request }) => {
  // A crawler that may not fetch a page never reads its noindex.
  const robots = await request.get("/robots.txt");
  const disallowed = (await robots.text()).split("\n").filter((line) => line.startsWith("Disallow:"));
  expect(disallowed).toEqual(["Disallow: /dashboard", "Disallow: /auth", "Disallow: /api/"]);

  for (const [p, status] of [
    ["/payment-success?session_id=cs_test_1", 200],
    ["/payment-cancel", 200],
    ["/no/such/page", 404],
  ] as const) {
    const res = await request.get(p);
    expect(res.status(), p).toBe(status);
    const html = await res.text();
    expect(html, p).toContain('<meta name="robots" content="noindex"/>');
    expect(html, p).not.toContain('rel="canonical"');
  }
  const notFound = await (await request.get("/no/such/page")).text();
  expect(notFound).not.toContain("/404");
  expect(notFound).not.toContain('property="og:url"');
});

test("each public page has its own title, description, canonical URL and Open Graph tags", async ({ request, baseURL }) => {
  const seen = new Set<string>();
  for (const p of [
    "/",
    "/how-it-works",
    "/results",
    "/industries",
    "/goals",
    "/packages",
    "/apps",
    "/live-training",
    "/earn",
    "/distributors",
  ]) {
    const html = await (await request.get(p)).text();
    const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
    expect(title, p).toBeTruthy();
    expect(seen.has(title!), `${p} repeats the title ${title}`).toBe(false);
    seen.add(title!);
    expect(html, p).toMatch(/<meta name="description" content="[^"]{20,}"/);
    expect(html, p).toContain(`<link rel="canonical" href="${baseURL}${p}"/>`);
    expect(html, p).toContain(`<meta property="og:url" content="${baseURL}${p}"/>`);
  }
});

test("state-changing requests with a missing, null or foreign Origin are refused with 403", async ({ request, baseURL }) => {
  const body = { email: "nobody@example.com", password: "whatever-123" };
  const variants: Record<string, string>[] = [
    {},
    { Origin: "null" },
    { Origin: "https://evil.example" },
    { Origin: `${baseURL}.evil.example` },
  ];
  for (const headers of variants) {
    const res = await request.post("/api/auth/sign-in/email", { headers, data: body });
    expect(res.status(), JSON.stringify(headers)).toBe(403);
  }
  // The same request with the site's Origin reaches sign-in (from an address of its own, so the
  // per-IP sign-in limit that 127.0.0.1 shares with other tests cannot answer 429 instead).
  const ok = await raw({ method: "POST", path: "/api/auth/sign-in/email", headers: { origin: new URL(baseURL!).origin }, body });
  expect(ok.status).toBe(401);
});

const DASHBOARD_ROUTES = [
  "/dashboard",
  "/dashboard/billing",
  "/dashboard/addons",
  "/dashboard/scaling",
  "/dashboard/onboarding",
  "/dashboard/profile",
  "/dashboard/analytics",
  "/dashboard/settings",
  "/dashboard/support",
  "/dashboard/automation",
  "/dashboard/no-such-page",
];

test("signed out, every dashboard page and its data request redirects to /auth and returns no data", async ({ request }) => {
  for (const route of DASHBOARD_ROUTES) {
    const page = await request.get(route, { maxRedirects: 0 });
    expect(page.status(), route).toBe(302);
    expect(page.headers()["location"], route).toBe(`/auth?next=${encodeURIComponent(route)}`);

    // React Router's data request for the same page: a redirect to the page's sign-in URL, nothing else.
    const dataRes = await request.get(`${route}.data`, { maxRedirects: 0 });
    const body = await dataRes.text();
    expect(body, route).toContain("SingleFetchRedirect");
    expect(body, route).toContain(`/auth?next=${encodeURIComponent(route)}`);
    expect(body, route).not.toMatch(/email|trial|ticket/i);
  }
});

/** A raw POST through node:http, so the test controls Content-Length and chunking itself. */
function rawPost(baseURL: string, pathname: string, opts: { body: string; chunked?: boolean }) {
  const url = new URL(pathname, baseURL);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        headers: {
          Origin: url.origin,
          "Content-Type": "application/json",
          ...(opts.chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": Buffer.byteLength(opts.body) }),
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // The server may answer and close before reading the whole body; that is the point.
    req.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error),
    );
    req.end(opts.body);
  });
}

test("request bodies: over 256 KB gets 413, a chunked body without a length gets 411, both before any route runs", async ({
  baseURL,
}) => {
  const big = JSON.stringify({ kind: "app", appId: 7, tab: "base", pad: "x".repeat(300 * 1024) });
  for (const route of ["/api/checkout", "/api/callback", "/auth", "/api/auth/sign-in/email"]) {
    const tooBig = await rawPost(baseURL!, route, { body: big });
    expect(tooBig.status, route).toBe(413);
    expect(JSON.parse(tooBig.body), route).toEqual({ error: "Request body too large" });
    const chunked = await rawPost(baseURL!, route, { body: "{}", chunked: true });
    expect(chunked.status, route).toBe(411);
  }
  // A normal small body still reaches the route (signed out: 401 from the checkout API).
  const small = await rawPost(baseURL!, "/api/checkout", { body: JSON.stringify({ kind: "app", appId: 7, tab: "base" }) });
  expect(small.status).toBe(401);
});

const nonceOf = (csp: string | undefined) => csp?.match(/'nonce-([^']+)'/)?.[1];

test("the CSP nonce is new on every response, every inline script carries it, and pages hydrate without a CSP violation", async ({
  page,
  request,
}) => {
  // /auth is never served from the page cache: every response is a fresh render.
  const first = await request.get("/auth");
  const second = await request.get("/auth");
  const nonce = nonceOf(first.headers()["content-security-policy"]);
  expect(nonce).toBeTruthy();
  expect(nonceOf(second.headers()["content-security-policy"])).not.toBe(nonce);
  const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);

  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  for (const url of ["/", "/apps", "/packages", "/auth"]) {
    await page.goto(url);
    await expect(page.locator("html[data-hydrated]"), url).toBeAttached();
  }
  expect(violations).toEqual([]);
});

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Asks until the page cache answers (it stores a render a moment after sending it). */
async function cachedResponse(request: APIRequestContext, url: string, headers: Record<string, string> = {}) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await request.get(url, { headers });
    if (res.headers()["x-page-cache"] === "hit") return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} was never served from the page cache`);
}

test("anonymous pages come from the page cache: no nonce, inline scripts allowed by hash, and they hydrate without a CSP violation", async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  for (const url of ["/?from=page-cache-test", "/apps?q=crm", "/packages?mode=monthly"]) {
    const res = await cachedResponse(request, url);
    const csp = res.headers()["content-security-policy"]!;
    expect(csp, url).not.toContain("nonce");
    expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await res.text();
    expect(html, url).not.toContain("nonce=");
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs, body]) => !/\bsrc=/.test(attrs!) && body,
    );
    expect(inline.length, url).toBeGreaterThan(0);
    for (const [, , body] of inline) expect(csp, url).toContain(sha256(body!));

    const response = await page.goto(url);
    expect(response?.headers()["x-page-cache"], url).toBe("hit");
    await expect(page.locator("html[data-hydrated]"), url).toBeAttached();
  }
  expect(violations).toEqual([]);
});

test("the page cache serves brotli, gzip and 304s, and never a signed-in visitor or a page that did not opt in", async ({
  page,
  request,
}) => {
  const url = "/apps?industry=Healthcare";
  const br = await cachedResponse(request, url, { "Accept-Encoding": "gzip, deflate, br" });
  expect(br.headers()["content-encoding"]).toBe("br");
  const gz = await cachedResponse(request, url, { "Accept-Encoding": "gzip" });
  expect(gz.headers()["content-encoding"]).toBe("gzip");
  expect(await gz.text()).toBe(await br.text());
  const etag = gz.headers()["etag"]!;
  const notModified = await request.get(url, { headers: { "Accept-Encoding": "gzip", "If-None-Match": etag } });
  expect(notModified.status()).toBe(304);

  // /auth and /dashboard never opted in.
  for (const other of ["/auth", "/auth?mode=signup"]) {
    await request.get(other);
    await new Promise((r) => setTimeout(r, 300));
    expect((await request.get(other)).headers()["x-page-cache"], other).toBeUndefined();
  }

  // Signed in, the same URL is rendered for this visitor: never the anonymous copy.
  await signUpVerified(page);
  const signedIn = await page.request.get(url);
  expect(signedIn.headers()["x-page-cache"]).toBeUndefined();
  expect(signedIn.headers()["content-security-policy"]).toMatch(/'nonce-/);
  // The loader data in the document is this visitor's (the anonymous copy says false).
  expect(await signedIn.text()).toContain('\\"signedIn\\",true');
  expect(await gz.text()).toContain('\\"signedIn\\",false');
  // Before hydration the trial buttons of the stored copy go to Sign In; only this visitor's own
  // render posts a checkout to /apps.
  expect(await gz.text()).toContain('<input type="hidden" name="next" value="/apps?industry=Healthcare"/>');
  expect(await gz.text()).not.toContain('name="appId"');
  expect(await signedIn.text()).toContain('<form method="post"><input type="hidden" name="appId"');
  expect(await signedIn.text()).not.toContain('name="next" value="/apps');
});
