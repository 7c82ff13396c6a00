import { describe, expect, it } from "vitest";
import { USER_FIELD_LIMITS, holdsNul, userFieldsProblem } from "./auth-input.server";

describe("userFieldsProblem", () => {
  it("accepts the fields the sign-up form sends, and bodies without them", () => {
    expect(userFieldsProblem({ name: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace", companyName: "" })).toBeNull();
    expect(userFieldsProblem({ email: "a@example.com", password: "x" })).toBeNull();
    expect(userFieldsProblem(undefined)).toBeNull();
  });

  it("lets the extra name fields be cleared, but not the display name", () => {
    expect(userFieldsProblem({ firstName: null, lastName: null, companyName: null })).toBeNull();
    expect(userFieldsProblem({ name: null })).toBe("name: Invalid input: expected text");
    expect(userFieldsProblem({ name: "   " })).toBe("name: Name is required");
  });

  it("refuses anything but text", () => {
    for (const value of [5, true, [], {}, ["a"]]) {
      expect(userFieldsProblem({ firstName: value })).toBe("firstName: Invalid input: expected text");
    }
  });

  it("refuses control characters and lone surrogates", () => {
    expect(userFieldsProblem({ lastName: "a\u0000b" })).toMatch(/^lastName: /);
    expect(userFieldsProblem({ companyName: "\uD800" })).toMatch(/^companyName: /);
  });

  it("holds each field to its limit, inclusive", () => {
    for (const [field, max] of Object.entries(USER_FIELD_LIMITS)) {
      expect(userFieldsProblem({ [field]: "a".repeat(max) })).toBeNull();
      expect(userFieldsProblem({ [field]: "a".repeat(max + 1) })).toBe(`${field}: At most ${max} characters`);
    }
  });

  it("refuses a profile picture URL", () => {
    expect(userFieldsProblem({ image: "javascript:alert(1)" })).toBe("image: Profile pictures are not supported");
    expect(userFieldsProblem({ image: null })).toBeNull();
  });
});

describe("holdsNul", () => {
  it("finds NUL in strings at any depth of objects and arrays", () => {
    expect(holdsNul("abc\u0000def")).toBe(true);
    expect(holdsNul({ token: "\u0000" })).toBe(true);
    expect(holdsNul({ a: [{ b: ["x", "y\u0000"] }] })).toBe(true);
  });

  it("passes everything else, including other control characters (checked where they matter)", () => {
    for (const value of [undefined, null, 5, "", "plain", { token: "abc" }, ["a", { b: "c" }], "\u0001\u001f"]) {
      expect(holdsNul(value)).toBe(false);
    }
  });
});
