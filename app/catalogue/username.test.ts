import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import {
  defaultUsername,
  isReservedUsername,
  newUsernameError,
  normalizeUsername,
  usernameBase,
  usernameError,
  USERNAME_PATTERN,
  USERNAME_RESERVED,
} from "./username";

/** The first path segment of every route in app/routes.ts (`sitemap.xml` -> `sitemap`). */
function firstSegments(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((e) => {
    const first = e.path?.split("/")[0]?.split(".")[0];
    // A pathless layout's children start at its level.
    if (!e.path) return e.children ? firstSegments(e.children) : [];
    return first && !first.startsWith(":") && first !== "*" ? [first] : [];
  });
}

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

  it("reserves role, trust and brand names, case-insensitively and ignoring - and _", () => {
    const reserved = [
      "admin",
      "Administrator",
      "support",
      "help",
      "api",
      "root",
      "www",
      "billing",
      "security",
      "staff",
      "ops",
      "operator",
      "mail",
      "info",
      "abuse",
      "postmaster",
      "webmaster",
      "hostmaster",
      "noreply",
      "no-reply",
      "no_reply",
      "system",
      "moderator",
      "aiautomationapps",
      "ai-automation-apps",
      "AI_Automation_Apps",
      "aiapps",
      "ai-apps",
      "official",
      "team",
      "ad_min",
      "Ad-Min",
      "-admin-",
      "s_u_p_p_o_r_t",
    ];
    expect(reserved.filter((name) => !isReservedUsername(name))).toEqual([]);
    const free = ["admin1", "adminx", "janedoe", "helpful", "teamwork", "support-jane", "ref2", "apps4you"];
    expect(free.filter((name) => isReservedUsername(name))).toEqual([]);
  });

  it("reserves the first segment of every route in app/routes.ts", () => {
    const segments = firstSegments(routes);
    expect(segments).toEqual(expect.arrayContaining(["admin", "dashboard", "auth", "apps", "packages", "ref", "earn"]));
    expect(segments.filter((segment) => !isReservedUsername(segment))).toEqual([]);
  });

  it("a new username: the format's message first, then the reservation's", () => {
    expect(newUsernameError("ab")).toMatch(/at least 3/);
    expect(newUsernameError("Admin")).toMatch(/lower-case letters, digits/);
    expect(newUsernameError("admin")).toBe(USERNAME_RESERVED);
    expect(newUsernameError("no_reply")).toBe(USERNAME_RESERVED);
    expect(newUsernameError("jane-doe")).toBeNull();
    // Looking up an affiliate checks the format only: a name taken before it was reserved still resolves.
    expect(usernameError("support")).toBeNull();
  });

  it("default usernames are never reserved", () => {
    for (const [first, last] of [
      ["Admin", ""],
      ["Sup", "Port"],
      ["", ""],
      ["Team", ""],
    ]) {
      for (const r of [0, 0.5, 0.999]) expect(isReservedUsername(defaultUsername(first, last, () => r))).toBe(false);
    }
  });
});
