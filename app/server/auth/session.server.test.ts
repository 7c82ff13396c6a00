import { describe, expect, it } from "vitest";
import { pagePath, safeNext } from "./session.server";

describe("safeNext", () => {
  it("keeps same-site paths", () => {
    expect(safeNext("/dashboard/billing?x=1")).toBe("/dashboard/billing?x=1");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "evil", "", null, undefined, "/a\\b"]) {
      expect(safeNext(bad)).toBe("/dashboard");
    }
  });
});

describe("pagePath", () => {
  it("maps React Router data requests back to their page", () => {
    expect(pagePath("http://x/dashboard/billing.data")).toBe("/dashboard/billing");
    expect(pagePath("http://x/dashboard/onboarding.data?_routes=routes%2F_dashboard%2Fonboarding")).toBe("/dashboard/onboarding");
    expect(pagePath("http://x/dashboard/addons.data?q=crm&_routes=a")).toBe("/dashboard/addons?q=crm");
    expect(pagePath("http://x/_root.data")).toBe("/");
    expect(pagePath("http://x/dashboard?plan=pro")).toBe("/dashboard?plan=pro");
  });
});
