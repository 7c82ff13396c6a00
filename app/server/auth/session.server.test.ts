import { describe, expect, it } from "vitest";
import { safeNext } from "./session.server";

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
