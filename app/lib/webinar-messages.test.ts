import { describe, expect, it } from "vitest";
import { acceptWebinarMessage, WEBINAR_MAX_HEIGHT, WEBINAR_MIN_HEIGHT } from "./webinar-messages";

const ORIGIN = "https://webinar.example.com";
const frame = { name: "iframe window" };
const expected = { origin: ORIGIN, source: frame };
const ok = (data: unknown, over: Partial<{ origin: string; source: unknown }> = {}) =>
  acceptWebinarMessage({ origin: ORIGIN, source: frame, data, ...over }, expected);

describe("acceptWebinarMessage", () => {
  it("accepts resize and hide from the frame on the webinar origin", () => {
    expect(ok({ type: "resize", height: 900 })).toEqual({ type: "resize", height: 900 });
    expect(ok({ type: "hide" })).toEqual({ type: "hide" });
  });

  it("clamps and rounds heights", () => {
    expect(ok({ type: "resize", height: 50 })).toEqual({ type: "resize", height: WEBINAR_MIN_HEIGHT });
    expect(ok({ type: "resize", height: 1e9 })).toEqual({ type: "resize", height: WEBINAR_MAX_HEIGHT });
    expect(ok({ type: "resize", height: 640.6 })).toEqual({ type: "resize", height: 641 });
  });

  it.each([
    "https://webinar.example.com.evil.com",
    "https://webinar.example.com:443",
    "https://webinar.example.co",
    "http://webinar.example.com",
    "https://evil.webinar.example.com",
    "HTTPS://WEBINAR.EXAMPLE.COM",
    "https://webinar.example.com/",
    "null",
    "",
  ])("rejects origin %s", (origin) => {
    expect(ok({ type: "hide" }, { origin })).toBeNull();
  });

  it("rejects messages from another window, even on the right origin", () => {
    expect(ok({ type: "hide" }, { source: { name: "other" } })).toBeNull();
    expect(ok({ type: "hide" }, { source: null })).toBeNull();
  });

  it("rejects everything when no origin is configured or the frame is not attached", () => {
    expect(
      acceptWebinarMessage({ origin: ORIGIN, source: frame, data: { type: "hide" } }, { origin: null, source: frame }),
    ).toBeNull();
    expect(
      acceptWebinarMessage({ origin: ORIGIN, source: null, data: { type: "hide" } }, { origin: ORIGIN, source: null }),
    ).toBeNull();
    expect(
      acceptWebinarMessage({ origin: "", source: undefined, data: { type: "hide" } }, { origin: "", source: undefined }),
    ).toBeNull();
  });

  it.each([
    ["a string", "resize"],
    ["a JSON string", JSON.stringify({ type: "hide" })],
    ["null", null],
    ["undefined", undefined],
    ["a number", 900],
    ["an array", [{ type: "hide" }]],
    ["an unknown type", { type: "navigate", url: "https://evil.example" }],
    ["a missing type", { height: 900 }],
    ["a non-string type", { type: 1 }],
    ["a string height", { type: "resize", height: "900" }],
    ["a missing height", { type: "resize" }],
    ["NaN", { type: "resize", height: Number.NaN }],
    ["Infinity", { type: "resize", height: Number.POSITIVE_INFINITY }],
    ["a negative height", { type: "resize", height: -5 }],
    ["a zero height", { type: "resize", height: 0 }],
  ])("ignores %s as data", (_label, data) => {
    expect(ok(data)).toBeNull();
  });
});
