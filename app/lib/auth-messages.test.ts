import { describe, expect, it } from "vitest";
import { AUTH_TEXT, signInNote, signInPath } from "./auth-messages";

const note = (query: string) => signInNote(new URLSearchParams(query));

describe("signInNote", () => {
  it("shows the fixed text of each known reason code", () => {
    expect(note("reason=trial")).toEqual({ message: "Please sign in to start your free trial." });
    expect(note("next=%2Fdashboard&reason=dashboard-trial")).toEqual({
      title: "Authentication Required",
      message: "Please sign in to start your trial.",
    });
    expect(note("reason=addons")).toEqual({ message: "Please sign in to add add-ons" });
    expect(note("reason=upgrade")).toEqual({ message: "Please sign in to upgrade your plan" });
    expect(note("reset=done&reason=addons")).toEqual({ message: AUTH_TEXT.passwordUpdated });
  });

  it("never shows text from the address, nor anything for unknown or inherited keys", () => {
    for (const query of [
      "",
      "reason=",
      "reason=Your+account+is+locked",
      "reason=ADDONS",
      "reason=constructor",
      "reason=__proto__",
      "reason=toString",
      "reason=hasOwnProperty",
      "message=Call+us",
    ]) {
      expect([query, note(query)]).toEqual([query, null]);
    }
  });
});

describe("signInPath", () => {
  it("keeps next first (what sign-in redirect checks look for) and adds the reason code", () => {
    expect(signInPath("/dashboard/addons")).toBe("/auth?next=%2Fdashboard%2Faddons");
    expect(signInPath("/dashboard/addons", "addons")).toBe("/auth?next=%2Fdashboard%2Faddons&reason=addons");
    expect(signInPath("/dashboard?plan=pro", "dashboard-trial")).toBe(
      "/auth?next=%2Fdashboard%3Fplan%3Dpro&reason=dashboard-trial",
    );
  });
});
