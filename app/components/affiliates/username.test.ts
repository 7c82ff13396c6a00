import { describe, expect, it } from "vitest";
import { defaultUsername, normalizeUsername, usernameBase, usernameError, USERNAME_PATTERN } from "./username";

describe("affiliate username rules", () => {
  it("normalises to trimmed lower case", () => {
    expect(normalizeUsername("  JaneDoe_1 ")).toBe("janedoe_1");
  });

  it("accepts 3-30 characters of [a-z0-9_-]", () => {
    for (const ok of ["abc", "jane-doe_42", "a".repeat(30), "007"]) expect(usernameError(ok)).toBeNull();
  });

  it("refuses too short, too long and other characters with a message", () => {
    expect(usernameError("ab")).toMatch(/at least 3/);
    expect(usernameError("a".repeat(31))).toMatch(/at most 30/);
    for (const bad of ["jane doe", "jane.doe", "Jane", "jané", "jane/../x", "<script>", "jane@x"]) {
      expect(usernameError(bad)).toMatch(/lower-case letters, digits/);
    }
  });

  it("default: first + last name lower-cased without non-alphanumerics, plus a number below 1000", () => {
    expect(defaultUsername("Jane", "O'Doe-Smith", () => 0.421)).toBe("janeodoesmith421");
    expect(defaultUsername("Jane", "Doe", () => 0)).toBe("janedoe0");
    expect(defaultUsername("Jane", "Doe", () => 0.9999999)).toBe("janedoe999");
    expect(defaultUsername("José", "Núñez", () => 0.5)).toBe("josenunez500");
  });

  it("default: 'affiliate' when the names give nothing", () => {
    expect(defaultUsername("", "", () => 0.123)).toBe("affiliate123");
    expect(defaultUsername(undefined, null, () => 0.5)).toBe("affiliate500");
    expect(defaultUsername("李", "!!", () => 0.5)).toBe("affiliate500");
  });

  it("default: always valid, even for one letter or very long names", () => {
    expect(defaultUsername("J", "", () => 0.007)).toBe("j07");
    expect(defaultUsername("J", "", () => 0.07)).toBe("j70");
    expect(defaultUsername("J", "", () => 0.7)).toBe("j700");
    const long = defaultUsername("Maximilian".repeat(3), "Oberhuber".repeat(3), () => 0.999);
    expect(long.length).toBeLessThanOrEqual(30);
    expect(usernameBase("a".repeat(40), "")).toHaveLength(27);
    for (let i = 0; i < 200; i++) {
      expect(defaultUsername("J", "", Math.random)).toMatch(USERNAME_PATTERN);
      expect(defaultUsername("Anna-Lena", "Müller", Math.random)).toMatch(USERNAME_PATTERN);
    }
  });
});
