import { describe, expect, it } from "vitest";
import { routeWantsIslands } from "~/lib/islands";
import { islandsBootScript, islandsScripts } from "./islands.server";

// A trimmed Vite manifest: the islands entry shares React with React Router's entry, not the router.
const manifest = {
  "app/islands/home.client.tsx": {
    file: "assets/home.client-A.js",
    imports: ["_client-B.js", "_jsx-runtime-C.js", "_Ticker-D.js"],
  },
  "_client-B.js": { file: "assets/client-B.js", imports: ["_jsx-runtime-C.js"] },
  "_jsx-runtime-C.js": { file: "assets/jsx-runtime-C.js" },
  "_Ticker-D.js": { file: "assets/Ticker-D.js", imports: ["_jsx-runtime-C.js", "_icons-E.js"] },
  "_icons-E.js": { file: "assets/icons-E.js" },
  "_router-F.js": { file: "assets/router-F.js" },
  "entry.client.tsx": { file: "assets/entry.client-G.js", imports: ["_client-B.js", "_router-F.js"] },
};

describe("islandsScripts", () => {
  it("lists the entry first, then every chunk it imports once, and nothing it does not import", () => {
    expect(islandsScripts(manifest, "app/islands/home.client.tsx")).toEqual([
      "/assets/home.client-A.js",
      "/assets/client-B.js",
      "/assets/jsx-runtime-C.js",
      "/assets/Ticker-D.js",
      "/assets/icons-E.js",
    ]);
  });

  it("is null when the build has no such entry", () => {
    expect(islandsScripts(manifest, "app/islands/missing.tsx")).toBeNull();
  });
});

describe("islandsBootScript", () => {
  const script = islandsBootScript(["/assets/home.client-A.js", "/assets/client-B.js"]);

  it("waits for a painted frame, then preloads every file and imports the entry", () => {
    const wait = script.indexOf("requestAnimationFrame");
    expect(wait).toBeGreaterThan(-1);
    expect(script.indexOf('["/assets/home.client-A.js","/assets/client-B.js"]')).toBeGreaterThan(wait);
    expect(script.trimEnd().endsWith('await import("/assets/home.client-A.js");')).toBe(true);
  });

  it("has no static import, which would load before the first paint", () => {
    expect(script).not.toMatch(/(^|[;\s])import\s*[\w*{"]/m);
  });
});

describe("routeWantsIslands", () => {
  it("is true only for a handle with islands: true", () => {
    expect(routeWantsIslands({ islands: true, pageCache: true })).toBe(true);
    for (const handle of [undefined, null, "islands", { islands: "yes" }, { pageCache: true }]) {
      expect(routeWantsIslands(handle)).toBe(false);
    }
  });
});
