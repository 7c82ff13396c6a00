import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { routeLabeller, routePatterns } from "./route-label.server";

/** A build's route table as React Router writes it: ids, parents, relative paths. */
const build = {
  basename: "/",
  routes: {
    root: { id: "root", path: "", module: {} },
    "routes/_marketing/layout": { id: "routes/_marketing/layout", parentId: "root", module: {} },
    "routes/_marketing/home": { id: "routes/_marketing/home", parentId: "routes/_marketing/layout", index: true, module: {} },
    "routes/_marketing/apps.detail": {
      id: "routes/_marketing/apps.detail",
      parentId: "routes/_marketing/layout",
      path: "apps/:slug",
      module: {},
    },
    "routes/_dashboard/layout": { id: "routes/_dashboard/layout", parentId: "root", path: "dashboard", module: {} },
    "routes/_dashboard/billing": {
      id: "routes/_dashboard/billing",
      parentId: "routes/_dashboard/layout",
      path: "billing",
      module: {},
    },
  },
} as unknown as Pick<ServerBuild, "routes" | "basename">;

describe("route labels", () => {
  it("are each route's whole pattern from the root", () => {
    const patterns = routePatterns(build);
    expect(patterns.get("routes/_marketing/home")).toBe("/");
    expect(patterns.get("routes/_marketing/apps.detail")).toBe("/apps/:slug");
    expect(patterns.get("routes/_dashboard/billing")).toBe("/dashboard/billing");
  });

  it("name a URL by the pattern that answers it, never by the URL, and 'unmatched' otherwise", () => {
    const labelOf = routeLabeller(build);
    expect(labelOf("/")).toBe("/");
    expect(labelOf("/apps/crm-pilot")).toBe("/apps/:slug");
    expect(labelOf("/apps/another-one")).toBe("/apps/:slug");
    expect(labelOf("/dashboard/billing")).toBe("/dashboard/billing");
    expect(labelOf("/no/such/page")).toBe("unmatched");
  });
});
