import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { describe, expect, it, vi } from "vitest";
import * as entry from "~/entry.server";
import { cspNonceRouterContext } from "~/lib/csp-nonce";
import { pageCacheRouterContext } from "~/lib/page-cache";
import { SUBMIT_GATE_SCRIPT } from "~/lib/submit-gate";
import * as root from "~/root";
import { GATE_CHECK, rewriteBoot } from "./hydrate-after-paint.server";

/**
 * Pins the document React Router and React render, which hydrate-after-paint.server.ts rewrites
 * with regular expressions: a request goes through React Router's own request handler, with this
 * app's root route and entry.server.tsx, and the document it renders must match each pattern as
 * often as expected. A React Router or React upgrade that changes that output fails here, instead
 * of silently leaving pages to load their JavaScript before the first paint, without the submit gate.
 */

const rendered: string[] = [];
vi.mock(import("./hydrate-after-paint.server"), async (original) => {
  const actual = await original();
  return {
    ...actual,
    hydrateAfterPaint: (doc: Buffer<ArrayBuffer>) => {
      rendered.push(doc.toString());
      return actual.hydrateAfterPaint(doc);
    },
  };
});

function Page() {
  return <main>Hello</main>;
}

const route = (id: string, module: string, extra: object = {}) => ({
  id,
  module,
  hasAction: false,
  hasLoader: id === "root",
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: id === "root",
  imports: ["/assets/shared-E.js"],
  css: [],
  clientActionModule: undefined,
  clientLoaderModule: undefined,
  clientMiddlewareModule: undefined,
  hydrateFallbackModule: undefined,
  ...extra,
});

function build(routeDiscovery: ServerBuild["routeDiscovery"]): ServerBuild {
  return {
    entry: { module: entry },
    routes: {
      root: { id: "root", path: "", module: root as never },
      "routes/page": { id: "routes/page", parentId: "root", path: "page", module: { default: Page } },
    },
    assets: {
      entry: { module: "/assets/entry.client-C.js", imports: ["/assets/jsx-D.js"] },
      routes: {
        root: route("root", "/assets/root-A.js", { path: "" }),
        "routes/page": route("routes/page", "/assets/page-B.js", { parentId: "root", path: "page" }),
      },
      url: "/assets/manifest-F.js",
      version: "F",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery,
  } as unknown as ServerBuild;
}

async function renderPage(routeDiscovery: ServerBuild["routeDiscovery"]) {
  rendered.length = 0;
  const handler = createRequestHandler(build(routeDiscovery), "production");
  const context = new RouterContextProvider();
  context.set(cspNonceRouterContext, "N");
  context.set(pageCacheRouterContext, undefined);
  const response = await handler(new Request("http://localhost/page"), context);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(rendered).toHaveLength(1);
  return { raw: rendered[0]!, html };
}

describe("React Router's document, as hydrate-after-paint rewrites it", () => {
  it("matches every pattern as expected with routes discovered lazily (this app's setting)", async () => {
    const { raw, html } = await renderPage({ mode: "lazy", manifestPath: "/__manifest" });
    const rewrite = rewriteBoot(raw);
    expect(rewrite.unchanged).toBeNull();
    expect(rewrite.matches).toEqual({
      bootScripts: 1,
      // root and routes/page
      routeImports: 2,
      sideEffectImports: 0,
      entryImports: 1,
      // entry, its import, the routes' modules and their shared chunk
      preloadLinks: 5,
      preloadMentions: 5,
    });
    // What the server sent is that rewrite: no preload left, the gate asked before the entry loads.
    expect(html).toBe(rewrite.html);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain(GATE_CHECK);
    // The gate is installed in <head>, before any form, with the request's nonce.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain(`<script type="module" async="" nonce="N">${SUBMIT_GATE_SCRIPT}</script>`);
  });

  it("matches the manifest's side-effect import when every route is sent up front", async () => {
    const { raw } = await renderPage({ mode: "initial", manifestPath: "/__manifest" });
    const rewrite = rewriteBoot(raw);
    expect(rewrite.unchanged).toBeNull();
    expect(rewrite.matches).toMatchObject({ bootScripts: 1, routeImports: 2, sideEffectImports: 1, entryImports: 1 });
    expect(rewrite.matches.preloadLinks).toBe(rewrite.matches.preloadMentions);
  });
});
