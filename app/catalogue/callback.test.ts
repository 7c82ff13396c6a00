import { describe, expect, it } from "vitest";
import { missingCallbackFields } from "./callback";

describe("missingCallbackFields", () => {
  it("requires firstName, email and phone only", () => {
    expect(missingCallbackFields({})).toEqual(["firstName", "email", "phone"]);
    expect(missingCallbackFields({ firstName: "Ana", email: "ana@example.com", phone: "+1 555 0100" })).toEqual([]);
  });
  it("treats whitespace as empty", () => {
    expect(missingCallbackFields({ firstName: "  ", email: "a@b.co", phone: "\t" })).toEqual(["firstName", "phone"]);
  });
});
