import { createHash } from "node:crypto";
import { createServer, get as httpGet, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { PageCacheMark } from "~/lib/page-cache";
import { PRIVATE_BY_DEFAULT, privateByDefault, sharedCacheControl } from "./cache-control.server";
import { createPageCache, hasSessionCookie, matchesIfNoneMatch, routesOptedIn, withoutNonce } from "./page-cache.server";

describe("If-None-Match", () => {
  it("matches an entity tag in a list, weakly, or *", () => {
    expect(matchesIfNoneMatch('"a-br"', '"a-br"')).toBe(true);
    expect(matchesIfNoneMatch('"x", W/"a-br"', '"a-br"')).toBe(true);
    expect(matchesIfNoneMatch("*", '"a-br"')).toBe(true);
    expect(matchesIfNoneMatch('"a-gzip"', '"a-br"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"a-br"')).toBe(false);
  });

  it("treats any Better Auth cookie as a possible session", () => {
    expect(hasSessionCookie("better-auth.session_token=abc")).toBe(true);
    expect(hasSessionCookie("ref=x.1; __Secure-better-auth.session_token=abc")).toBe(true);
    expect(hasSessionCookie("ref=x.1;better-auth.session_data=abc")).toBe(true);
    expect(hasSessionCookie("ref=x.1; sidebar_state=true")).toBe(false);
    expect(hasSessionCookie("not-better-auth.session_token=1")).toBe(false);
    expect(hasSessionCookie(undefined)).toBe(false);
  });
});

const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;

describe("withoutNonce", () => {
  it("removes the nonce and allows exactly the inline scripts by hash", () => {
    const html =
      '<html><head><script nonce="N0nce+/=" type="module" src="/a.js"></script></head><body>' +
      '<script nonce="N0nce+/=">window.x = 1;</script><script type="module" nonce="N0nce+/=">import "/b.js";</script></body></html>';
    const out = withoutNonce(html, "N0nce+/=")!;
    expect(out.html).not.toContain("nonce");
    expect(out.html).toContain('<script type="module" src="/a.js"></script>');
    const scriptSrc = /script-src ([^;]*)/.exec(out.csp)?.[1] ?? "";
    expect(scriptSrc.split(" ").toSorted()).toEqual(["'self'", sha("window.x = 1;"), sha('import "/b.js";')].toSorted());
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(out.csp).toContain("object-src 'none'");
  });

  it("refuses a document where the nonce appears elsewhere (it could not be removed cleanly)", () => {
    expect(withoutNonce('<script nonce="abc">1</script><p>abc</p>', "abc")).toBeNull();
  });
});

/** Which render of the stand-in application a body is. */
const renderOf = (body: Buffer | string) => /render (\d+)/.exec(body.toString())?.[1];

/** fetch decodes bodies itself: this reads the bytes as sent. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    httpGet(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("createPageCache", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A stand-in application: one page per path, rendered with a nonce, counting its renders. */
  async function start(
    opts: {
      cacheable?: (path: string) => boolean;
      mayStore?: (url: string) => boolean;
      setCookie?: boolean;
      status?: number;
      cacheControl?: string;
    } = {},
  ) {
    let clock = 1_000_000;
    const cache = createPageCache({
      ttlMs: 60_000,
      cacheControl: opts.cacheControl,
      maxBytes: 1_000_000,
      maxEntryBytes: 50_000,
      mayStore: opts.mayStore ?? ((url) => (opts.cacheable ? opts.cacheable(url.split("?")[0]!) : true)),
      now: () => clock,
    });
    const renders: string[] = [];
    let release: (() => void) | null = null;
    let holdNext = false;
    const app = express();
    app.use((_req, res, next) => {
      res.locals.cspNonce = `n${renders.length}nonce`;
      next();
    });
    app.use(privateByDefault);
    app.use(cache.capture);
    // Express 5 forwards a rejected promise to its error handler.
    // oxlint-disable-next-line oxc/no-async-endpoint-handlers
    app.get("/{*path}", async (req, res) => {
      renders.push(req.originalUrl);
      const mark = res.locals.pageCache as PageCacheMark | undefined;
      if (mark) mark.cacheable = opts.cacheable ? opts.cacheable(req.path) : true;
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      if (opts.setCookie) res.setHeader("Set-Cookie", "a=b");
      res.status(opts.status ?? 200).type("html");
      const big = req.path === "/big" ? "x".repeat(60_000) : "";
      res.write(`<html><body><p>${req.originalUrl} render ${renders.length}${big}</p>`);
      res.end(`<script nonce="${res.locals.cspNonce}">window.n = ${renders.length};</script></body></html>`);
    });
    server = createServer((req, res) => {
      cache.serve(
        req,
        res,
        () => false,
        () => app(req, res),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
      const res = await fetch(base + path, { method, headers });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    };
    /** Waits until a page stored by an earlier request answers from the cache. */
    const stored = async (path: string) => {
      for (let i = 0; i < 200; i++) {
        if ((await get(path)).headers.get("x-page-cache") === "hit") return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`${path} was never stored`);
    };
    return {
      cache,
      renders,
      get,
      stored,
      advance: (ms: number) => (clock += ms),
      hold: () => (holdNext = true),
      release: () => release?.(),
      /** Resolves once `path` has been rendered `count` times (a held render counts when it starts). */
      rendered: async (path: string, count: number) => {
        for (let i = 0; i < 400 && renders.filter((r) => r === path).length < count; i++)
          await new Promise((r) => setTimeout(r, 5));
        expect(renders.filter((r) => r === path)).toHaveLength(count);
      },
    };
  }

  it("renders once, then serves the stored page in every encoding, without a nonce, with a 304 for its ETag", async () => {
    const t = await start();
    const first = await t.get("/a?x=1");
    expect(first.headers.get("x-page-cache")).toBeNull();
    expect(first.body.toString()).toContain('nonce="n0nonce"');
    await t.stored("/a?x=1");
    const rendersAfterStore = t.renders.length;

    const plain = await t.get("/a?x=1", { "accept-encoding": "identity" });
    expect(plain.headers.get("x-page-cache")).toBe("hit");
    // Requests that came before the first render was stored rendered too: any of them may be the copy.
    const n = /render (\d+)/.exec(plain.body.toString())?.[1];
    expect(plain.body.toString()).toBe(`<html><body><p>/a?x=1 render ${n}</p><script>window.n = ${n};</script></body></html>`);
    expect(plain.headers.get("content-security-policy")).toContain(
      `'sha256-${createHash("sha256").update(`window.n = ${n};`).digest("base64")}'`,
    );
    expect(plain.headers.get("content-security-policy")).not.toContain("nonce");
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    expect(plain.headers.get("strict-transport-security")).toBeNull();

    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/a?x=1`;
    const br = await rawGet(url, "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await rawGet(url, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

    const etag = plain.headers.get("etag")!;
    expect((await t.get("/a?x=1", { "accept-encoding": "identity", "if-none-match": etag })).status).toBe(304);
    const head = await t.get("/a?x=1", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(t.renders.length).toBe(rendersAfterStore);
  });

  it("serves a stored copy with the shared Cache-Control, and a render with the private default", async () => {
    const t = await start({ cacheControl: sharedCacheControl(60) });
    const first = await t.get("/shared");
    expect(first.headers.get("cache-control")).toBe(PRIVATE_BY_DEFAULT);
    await t.stored("/shared");
    const hit = await t.get("/shared");
    expect(hit.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=60");
    expect(hit.headers.get("vary")).toBe("Accept-Encoding");
    const notModified = await t.get("/shared", { "if-none-match": hit.headers.get("etag")! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=60");
    // Signed in: rendered, private.
    const signedIn = await t.get("/shared", { cookie: "better-auth.session_token=abc" });
    expect(signedIn.headers.get("cache-control")).toBe(PRIVATE_BY_DEFAULT);
  });

  it("stores a URL on its second render: a URL asked for once is only rendered", async () => {
    const t = await start();
    await t.get("/once?q=1");
    await new Promise((r) => setTimeout(r, 100));
    expect(t.cache.size()).toBe(0);
    expect((await t.get("/once?q=1")).headers.get("x-page-cache")).toBeNull();
    // Stored a moment after the second answer (compression runs off the main thread).
    for (let i = 0; i < 500 && t.cache.size() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.cache.size()).toBe(1);
    expect((await t.get("/once?q=1")).headers.get("x-page-cache")).toBe("hit");
    expect(t.renders.filter((r) => r === "/once?q=1")).toHaveLength(2);
  });

  it("never serves or stores a request that carries a session cookie", async () => {
    const t = await start();
    await t.get("/b");
    await t.stored("/b");
    const before = t.renders.length;
    const signedIn = await t.get("/b", { cookie: "better-auth.session_token=abc" });
    expect(signedIn.headers.get("x-page-cache")).toBeNull();
    expect(signedIn.body.toString()).toContain("nonce=");
    expect(t.renders.length).toBe(before + 1);
  });

  it("clear drops every stored page, and a render under way when it ran is not stored", async () => {
    const t = await start();
    await t.get("/d");
    await t.get("/d");
    await t.stored("/d");
    t.cache.clear();
    expect(t.cache.size()).toBe(0);
    expect((await t.get("/d")).headers.get("x-page-cache")).toBeNull();

    // A render that began before the clear may show what the clear was for: never stored.
    await t.get("/e");
    t.hold();
    const held = t.get("/e");
    await t.rendered("/e", 2);
    t.cache.clear();
    t.release();
    expect((await held).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect((await t.get("/e")).headers.get("x-page-cache")).toBeNull();
    // The render after the clear is stored as usual.
    await t.stored("/e");
  });

  it("keys on the whole URL: another query string is another page", async () => {
    const t = await start();
    await t.get("/c?q=1");
    await t.stored("/c?q=1");
    const other = await t.get("/c?q=2");
    expect(other.headers.get("x-page-cache")).toBeNull();
    expect(other.body.toString()).toContain("/c?q=2");
  });

  it("stores nothing that did not opt in, set a cookie, failed, or is too large", async () => {
    const optOut = await start({ cacheable: (p) => p !== "/private" });
    // Twice each: a URL is stored on its second render.
    for (let i = 0; i < 2; i++) {
      await optOut.get("/private");
      await optOut.get("/big");
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await optOut.get("/private")).headers.get("x-page-cache")).toBeNull();
    expect((await optOut.get("/big")).headers.get("x-page-cache")).toBeNull();
    expect(optOut.cache.size()).toBe(0);
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    const cookie = await start({ setCookie: true });
    await cookie.get("/d");
    await cookie.get("/d");
    await new Promise((r) => setTimeout(r, 100));
    expect(cookie.cache.size()).toBe(0);
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    const failing = await start({ status: 500 });
    await failing.get("/e");
    await failing.get("/e");
    await new Promise((r) => setTimeout(r, 100));
    expect(failing.cache.size()).toBe(0);
  });

  it("after the TTL one request re-renders while the others get the stored copy, then the new copy is served", async () => {
    const t = await start();
    await t.get("/f");
    await t.stored("/f");
    // Requests made before the first copy was stored rendered too: count from here.
    const rendersOfF = () => t.renders.filter((r) => r === "/f").length;
    const before = rendersOfF();
    const storedBody = (await t.get("/f")).body.toString();
    t.advance(61_000);
    t.hold();
    const refreshing = t.get("/f");
    try {
      // Wait until the refreshing render has started, then ask again: the stored copy answers.
      for (let i = 0; i < 200 && rendersOfF() === before; i++) await new Promise((r) => setTimeout(r, 5));
      expect(rendersOfF()).toBe(before + 1);
      const meanwhile = await t.get("/f");
      expect(meanwhile.headers.get("x-page-cache")).toBe("hit");
      expect(meanwhile.body.toString()).toBe(storedBody);
    } finally {
      t.release();
    }
    const fresh = renderOf((await refreshing).body);
    expect(fresh).not.toBe(renderOf(storedBody));
    let latest = await t.get("/f");
    for (let i = 0; i < 200 && renderOf(latest.body) !== fresh; i++) {
      await new Promise((r) => setTimeout(r, 10));
      latest = await t.get("/f");
    }
    expect(renderOf(latest.body)).toBe(fresh);
    expect(latest.headers.get("x-page-cache")).toBe("hit");
    expect(rendersOfF()).toBe(before + 1);
  });

  it("concurrent misses of a page no entry holds render it once; the others get the stored copy", async () => {
    const t = await start();
    t.hold();
    const first = t.get("/g?x=1");
    await t.rendered("/g?x=1", 1);
    const others = Array.from({ length: 5 }, () => t.get("/g?x=1"));
    // They wait: nothing else renders while the first render is held.
    await new Promise((r) => setTimeout(r, 50));
    expect(t.renders.filter((r) => r === "/g?x=1")).toHaveLength(1);
    t.release();
    const answers = await Promise.all(others);
    expect((await first).headers.get("x-page-cache")).toBeNull();
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get("x-page-cache")).toBe("hit");
      expect(renderOf(a.body)).toBe(renderOf((await first).body));
      expect(a.body.toString()).not.toContain("nonce");
    }
    // The waiting requests counted as the second sighting: the page is stored after one render.
    expect(t.renders.filter((r) => r === "/g?x=1")).toHaveLength(1);
    expect(t.cache.size()).toBe(1);
  });

  it("requests waiting for a render that is not stored render for themselves, all at once", async () => {
    const t = await start({ setCookie: true });
    t.hold();
    const first = t.get("/h");
    await t.rendered("/h", 1);
    const others = Array.from({ length: 3 }, () => t.get("/h"));
    await new Promise((r) => setTimeout(r, 50));
    t.release();
    const answers = await Promise.all([first, ...others]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.every((a) => a.headers.get("x-page-cache") === null)).toBe(true);
    expect(t.renders.filter((r) => r === "/h")).toHaveLength(4);
    expect(t.cache.size()).toBe(0);
  });

  it("never holds a request for a URL whose route did not opt in, nor a signed-in one", async () => {
    const t = await start({ mayStore: (url) => !url.startsWith("/private") });
    t.hold();
    const held = t.get("/private");
    await t.rendered("/private", 1);
    // Answered while the first render of the same URL is still held.
    expect((await t.get("/private")).status).toBe(200);
    t.release();
    await held;

    t.hold();
    const heldPublic = t.get("/public");
    await t.rendered("/public", 1);
    expect((await t.get("/public", { cookie: "better-auth.session_token=abc" })).status).toBe(200);
    t.release();
    await heldPublic;
  });
});

/** A route of a server build's manifest, as React Router's Vite plugin writes it. */
const route = (id: string, extra: Record<string, unknown>, handle?: unknown) => ({
  id,
  ...extra,
  module: { default: () => null, handle },
});

describe("routesOptedIn", () => {
  const build = {
    basename: undefined,
    routes: {
      root: route("root", { path: "" }),
      layout: route("layout", { parentId: "root" }),
      home: route("home", { parentId: "layout", index: true }, { pageCache: true }),
      apps: route("apps", { parentId: "layout", path: "apps" }, { pageCache: true }),
      ref: route("ref", { parentId: "layout", path: "ref/:username" }),
      dashboard: route("dashboard", { parentId: "root", path: "dashboard" }, { pageCache: true }),
      billing: route("billing", { parentId: "dashboard", path: "billing" }),
      notFound: route("notFound", { parentId: "root", path: "*" }),
    },
  } as unknown as Parameters<typeof routesOptedIn>[0];

  it("follows the deepest matched route's handle, whatever the query string", () => {
    const optedIn = routesOptedIn(build);
    expect(optedIn("/")).toBe(true);
    expect(optedIn("/apps?q=crm&view=list")).toBe(true);
    expect(optedIn("/ref/someone")).toBe(false);
    // The layout above opted in; the page itself did not.
    expect(optedIn("/dashboard/billing")).toBe(false);
    expect(optedIn("/dashboard")).toBe(true);
    expect(optedIn("/assets/entry-abc.js")).toBe(false);
  });
});
