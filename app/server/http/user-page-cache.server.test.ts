import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createUserPageCache, verifiedSessionToken } from "./user-page-cache.server";

const SECRET = "test-secret-test-secret-test-secret";
const NAME = "better-auth.session_token";

/** Better Auth's form of the session cookie: `<token>.<base64 HMAC-SHA256>`, URI-encoded. */
function signed(token: string, secret = SECRET) {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `${NAME}=${encodeURIComponent(`${token}.${signature}`)}`;
}

describe("verifiedSessionToken", () => {
  it("returns the token of a cookie signed with the secret", () => {
    expect(verifiedSessionToken(signed("tok1"), NAME, SECRET)).toBe("tok1");
    expect(verifiedSessionToken(`sidebar_state=true; ${signed("tok1")}; ref=a`, NAME, SECRET)).toBe("tok1");
  });

  it("refuses another secret, a changed token, a bare token, two session cookies and other names", () => {
    expect(verifiedSessionToken(signed("tok1", "another-secret-another-secret"), NAME, SECRET)).toBeNull();
    const [, value = ""] = signed("tok1").split("=", 2);
    expect(verifiedSessionToken(`${NAME}=tok2${value.slice(4)}`, NAME, SECRET)).toBeNull();
    expect(verifiedSessionToken(`${NAME}=tok1`, NAME, SECRET)).toBeNull();
    expect(verifiedSessionToken(`${signed("tok1")}; ${signed("tok2")}`, NAME, SECRET)).toBeNull();
    expect(verifiedSessionToken(signed("tok1").replace(NAME, `__Secure-${NAME}`), NAME, SECRET)).toBeNull();
    expect(verifiedSessionToken(`${NAME}=%E0%A4%A`, NAME, SECRET)).toBeNull();
    expect(verifiedSessionToken(undefined, NAME, SECRET)).toBeNull();
  });
});

describe("createUserPageCache", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A stand-in application rendering per-user pages with a nonce; sessions and versions in a map. */
  async function start(opts: { status?: number; setCookie?: boolean } = {}) {
    let clock = 1_000_000;
    const sessions = new Map<string, { userId: string; version: string }>();
    let lookupFails = false;
    const cache = createUserPageCache({
      ttlMs: 10_000,
      maxBytes: 1_000_000,
      maxEntryBytes: 50_000,
      cookieName: NAME,
      secret: () => SECRET,
      lookup: async (token) => {
        if (lookupFails) throw new Error("database down");
        return sessions.get(token) ?? null;
      },
      mayStore: (path) => path !== "/dashboard/analytics",
      now: () => clock,
    });
    const renders: string[] = [];
    const app = express();
    app.use((_req, res, next) => {
      res.locals.cspNonce = `nonce${renders.length}x`;
      res.setHeader("Content-Security-Policy", `script-src 'nonce-${res.locals.cspNonce}'`);
      next();
    });
    app.use(cache.capture);
    app.get("/{*path}", (req, res) => {
      renders.push(req.originalUrl);
      if (opts.setCookie) res.setHeader("Set-Cookie", "a=b");
      const user = /tok-(\w+)/.exec(req.headers.cookie ?? "")?.[1] ?? "nobody";
      res.status(opts.status ?? 200).type("html");
      res.end(
        `<html><body><p>${req.originalUrl} for ${user} render ${renders.length}</p>` +
          `<script nonce="${res.locals.cspNonce}">window.n = ${renders.length};</script></body></html>`,
      );
    });
    server = createServer(
      (req, res) =>
        void cache.serve(
          req,
          res,
          () => false,
          () => app(req, res),
        ),
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string, cookie?: string) => {
      const res = await fetch(base + path, { headers: cookie ? { cookie } : {} });
      return {
        status: res.status,
        hit: res.headers.get("x-page-cache") === "hit",
        csp: res.headers.get("content-security-policy") ?? "",
        body: await res.text(),
      };
    };
    return {
      sessions,
      renders,
      get,
      /** Gives the previous render time to be stored. */
      settle: () => new Promise((r) => setTimeout(r, 30)),
      advance: (ms: number) => (clock += ms),
      failLookups: () => (lookupFails = true),
    };
  }

  it("serves a session's second view of a page from memory, with a fresh CSP that allows its script by hash", async () => {
    const t = await start();
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    const first = await t.get("/dashboard/billing", signed("tok-ann"));
    expect(first.hit).toBe(false);
    await t.settle();
    const second = await t.get("/dashboard/billing", signed("tok-ann"));
    expect(second.hit).toBe(true);
    expect(second.body).toContain("for ann render 1");
    expect(second.body).not.toContain("nonce");
    expect(second.csp).toMatch(/script-src 'self' 'sha256-/);
    expect(t.renders).toHaveLength(1);
  });

  it("never answers another session, a signed-out session, a changed version or a failed lookup from the copy", async () => {
    const t = await start();
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    t.sessions.set("tok-bob", { userId: "bob", version: "1.0" });
    await t.get("/dashboard", signed("tok-ann"));
    await t.settle();
    expect((await t.get("/dashboard", signed("tok-ann"))).hit).toBe(true);

    const bob = await t.get("/dashboard", signed("tok-bob"));
    expect(bob.hit).toBe(false);
    expect(bob.body).toContain("for bob");

    t.sessions.set("tok-ann", { userId: "ann", version: "2.0" });
    const changed = await t.get("/dashboard", signed("tok-ann"));
    expect(changed.hit).toBe(false);
    expect(changed.body).toContain("render 3");

    t.sessions.delete("tok-ann");
    expect((await t.get("/dashboard", signed("tok-ann"))).hit).toBe(false);
    // A forged signature never reaches the lookup's answer either.
    expect((await t.get("/dashboard", signed("tok-ann", "forged-secret-forged-secret"))).hit).toBe(false);

    t.sessions.set("tok-ann", { userId: "ann", version: "2.0" });
    await t.settle();
    expect((await t.get("/dashboard", signed("tok-ann"))).hit).toBe(true);
    t.failLookups();
    expect((await t.get("/dashboard", signed("tok-ann"))).hit).toBe(false);
  });

  it("keys on the whole cookie header: another sidebar state is another page", async () => {
    const t = await start();
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    await t.get("/dashboard", signed("tok-ann"));
    await t.settle();
    expect((await t.get("/dashboard", `sidebar_state=false; ${signed("tok-ann")}`)).hit).toBe(false);
  });

  it("renders again after the copy expires, serving the copy to others meanwhile", async () => {
    const t = await start();
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    await t.get("/dashboard/support", signed("tok-ann"));
    await t.settle();
    t.advance(10_001);
    const renewed = await t.get("/dashboard/support", signed("tok-ann"));
    expect(renewed.hit).toBe(false);
    expect(renewed.body).toContain("render 2");
    await t.settle();
    expect((await t.get("/dashboard/support", signed("tok-ann"))).body).toContain("render 2");
  });

  it("leaves other paths, query strings, data requests, unversioned pages, errors and cookie-setting answers to the application", async () => {
    const t = await start();
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    const hits: string[] = [];
    for (const path of ["/dashboard/billing?x=1", "/dashboard/billing.data", "/dashboard/analytics", "/apps", "/dashboard/a/b"]) {
      await t.get(path, signed("tok-ann"));
      await t.settle();
      if ((await t.get(path, signed("tok-ann"))).hit) hits.push(path);
    }
    expect(hits).toEqual([]);
    const failing = await start({ status: 500 });
    failing.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    await failing.get("/dashboard", signed("tok-ann"));
    await failing.settle();
    expect((await failing.get("/dashboard", signed("tok-ann"))).hit).toBe(false);
  });

  it("does not store an answer that sets a cookie", async () => {
    const t = await start({ setCookie: true });
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    await t.get("/dashboard", signed("tok-ann"));
    await t.settle();
    expect((await t.get("/dashboard", signed("tok-ann"))).hit).toBe(false);
  });

  it("renders a cold page once for concurrent requests of one session", async () => {
    const t = await start();
    t.sessions.set("tok-ann", { userId: "ann", version: "1.0" });
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.get("/dashboard/scaling", signed("tok-ann"))));
    expect(t.renders).toHaveLength(1);
    expect(answers.every((a) => a.body.includes("render 1"))).toBe(true);
  });
});
