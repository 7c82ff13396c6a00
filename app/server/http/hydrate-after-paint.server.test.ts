import { describe, expect, it } from "vitest";
import { hydrateAfterPaint, rewriteBoot } from "./hydrate-after-paint.server";

// The shape React Router 8 renders (trimmed): hoisted preloads in <head>, the boot module in <body>.
const boot = `;
import * as route0 from "/assets/root-A.js";
import * as route1 from "/assets/home-B.js";
  window.__reactRouterManifest = { "entry": { "module": "/assets/entry.client-C.js", "imports": ["/assets/jsx-D.js"] } };
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client-C.js");`;
const html =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>' +
  '<link rel="modulepreload" href="/assets/entry.client-C.js" nonce="N"/><link rel="modulepreload" href="/assets/jsx-D.js" nonce="N"/>' +
  '<link rel="icon" href="/favicon.svg"/></head><body><main>Hello</main>' +
  '<script nonce="N">window.__reactRouterContext = {};</script>' +
  `<script nonce="N" type="module" async="">${boot}</script>` +
  '<script nonce="N">window.__reactRouterContext.streamController.close();</script></body></html>';

const moduleScript = (doc: string) => /<script nonce="N" type="module" async="">([\s\S]*?)<\/script>/.exec(doc)?.[1] ?? "";

describe("hydrateAfterPaint", () => {
  const out = hydrateAfterPaint(Buffer.from(html)).toString();

  it("takes the module preloads out of <head> and leaves the other links", () => {
    expect(out).not.toContain('rel="modulepreload"');
    expect(out).toContain('<link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>');
    expect(out).toContain('<link rel="icon" href="/favicon.svg"/>');
  });

  it("keeps one boot module with no static import, waiting for a painted frame before loading anything", () => {
    const script = moduleScript(out);
    expect(script).not.toMatch(/^\s*import \*/m);
    const wait = script.indexOf("requestAnimationFrame");
    expect(wait).toBeGreaterThan(-1);
    expect(script.indexOf('import("/assets/root-A.js")')).toBeGreaterThan(wait);
    expect(script.indexOf('"/assets/jsx-D.js"')).toBeGreaterThan(wait);
    expect(script).toContain('const route0 = await import("/assets/root-A.js");');
    expect(script).toContain('const route1 = await import("/assets/home-B.js");');
    expect(script).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};');
    expect(script.trimEnd().endsWith('await __rrNextTask(); import("/assets/entry.client-C.js");')).toBe(true);
    // Yields do not use timers: a paused test clock (or a throttled background tab) would stall them.
    expect(script).not.toContain("setTimeout");
    // The other inline scripts and the page itself are untouched.
    expect(out).toContain('<script nonce="N">window.__reactRouterContext = {};</script>');
    expect(out).toContain("<main>Hello</main>");
  });

  /** Runs the rewritten boot script with fake browser globals; resolves when it has finished. */
  async function runBoot(opts: { frames: boolean; paintEntry: boolean }) {
    const events: string[] = [];
    const fakeImport = (url: string) => {
      events.push(`import ${url}`);
      return Promise.resolve({ url });
    };
    const document = {
      hidden: false,
      head: { appendChild: (l: { href: string }) => events.push(`preload ${l.href}`) },
      createElement: () => ({}),
    };
    // A paused test clock never runs animation frames.
    const requestAnimationFrame = (cb: () => void) => {
      if (!opts.frames) return;
      events.push("frame");
      cb();
    };
    class PerformanceObserver {
      constructor(private readonly cb: (list: unknown, observer: PerformanceObserver) => void) {}
      observe(options: { type: string; buffered: boolean }) {
        if (opts.paintEntry && options.type === "paint" && options.buffered) {
          events.push("paint entry");
          this.cb({}, this);
        }
      }
      disconnect() {}
    }
    const window: Record<string, unknown> = {};
    const body = moduleScript(out).replace(/\bimport\(/g, "fakeImport(");
    const run = new Function(
      "fakeImport",
      "document",
      "requestAnimationFrame",
      "PerformanceObserver",
      "window",
      `return (async () => {${body}})();`,
    ) as (...args: unknown[]) => Promise<void>;
    await run(fakeImport, document, requestAnimationFrame, PerformanceObserver, window);
    return { events, modules: window["__reactRouterRouteModules"] };
  }

  const loads = [
    "preload /assets/entry.client-C.js",
    "preload /assets/jsx-D.js",
    "import /assets/root-A.js",
    "import /assets/home-B.js",
    "import /assets/entry.client-C.js",
  ];

  it("is valid JavaScript that binds each route module and re-adds the preloads after the frame", async () => {
    const { events, modules } = await runBoot({ frames: true, paintEntry: false });
    expect(events).toEqual(["frame", ...loads]);
    // The global React Router's client reads the route modules from.
    expect(modules).toEqual({ root: { url: "/assets/root-A.js" }, "routes/home": { url: "/assets/home-B.js" } });
  });

  it("starts on the first-contentful-paint entry when no frame runs (a paused test clock)", async () => {
    const { events } = await runBoot({ frames: false, paintEntry: true });
    expect(events).toEqual(["paint entry", ...loads]);
  });

  it("leaves a document it does not recognise unchanged", () => {
    const noBoot = html.replace("__reactRouterRouteModules", "somethingElse");
    expect(hydrateAfterPaint(Buffer.from(noBoot)).toString()).toBe(noBoot);
    const otherImport = html.replace('import("/assets/entry.client-C.js");', 'import { x } from "/y.js";');
    expect(hydrateAfterPaint(Buffer.from(otherImport)).toString()).toBe(otherImport);
    expect(hydrateAfterPaint(Buffer.from("<html><body>plain</body></html>")).toString()).toBe("<html><body>plain</body></html>");
  });

  it("asks the submit gate before it imports the entry, and goes no further while a form's native submission replaces the page", async () => {
    const body = moduleScript(out).replace(/\bimport\(/g, "fakeImport(");
    for (const hydrate of [true, false]) {
      const imported: string[] = [];
      const window: Record<string, unknown> = { submitGate: { hydrate: () => hydrate } };
      const document = { hidden: true, head: { appendChild: () => {} }, createElement: () => ({}) };
      const run = new Function("fakeImport", "document", "window", `return (async () => {${body}})();`) as (
        ...args: unknown[]
      ) => Promise<void>;
      const fakeImport = (url: string) => {
        imported.push(url);
        return Promise.resolve({});
      };
      // The script never finishes when the gate says no: look once every route module is in.
      void run(fakeImport, document, window);
      await expect.poll(() => imported.length).toBeGreaterThanOrEqual(2);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(imported.includes("/assets/entry.client-C.js")).toBe(hydrate);
    }
  });

  it("says why it left a document unchanged, and how often each pattern matched", () => {
    expect(rewriteBoot(html)).toMatchObject({
      unchanged: null,
      matches: { bootScripts: 1, routeImports: 2, sideEffectImports: 0, entryImports: 1, preloadLinks: 2, preloadMentions: 2 },
    });
    expect(rewriteBoot(html.replace("__reactRouterRouteModules", "somethingElse")).unchanged).toBe("0 boot scripts");
    expect(rewriteBoot(html.replace('import("/assets/entry.client-C.js");', "")).unchanged).toBe(
      "no import of the entry module at the end of the boot script",
    );
    expect(
      rewriteBoot(
        html.replace('<link rel="modulepreload" href="/assets/jsx-D.js"', '<link href="/assets/jsx-D.js" rel="modulepreload"'),
      ).unchanged,
    ).toBe("a modulepreload link of another form");
  });
});
