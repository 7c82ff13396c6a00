import { describe, expect, it } from "vitest";
import { originAccepted, refusalPage, refusalText } from "./origin-check.server";

const LOCAL = ["http://localhost:4000", "http://127.0.0.1:4000", "http://[::1]:4000"];

describe("the Origin check's rule", () => {
  it("accepts only the site's own origins, exactly", () => {
    expect(LOCAL.filter((origin) => !originAccepted(origin, LOCAL))).toEqual([]);
    const foreign = [
      undefined,
      "null",
      "",
      "http://localhost:3000",
      "https://localhost:4000",
      "http://localhost:4000/",
      "http://localhost:4000.evil.example",
      "http://192.168.1.20:4000",
      "http://LOCALHOST:4000x",
    ];
    expect(foreign.filter((origin) => originAccepted(origin, LOCAL))).toEqual([]);
    expect(originAccepted("https://shop.example.com", ["https://shop.example.com"])).toBe(true);
    expect(originAccepted("http://localhost:4000", ["https://shop.example.com"])).toBe(false);
  });
});

describe("the refusal", () => {
  it("says why, and names what was expected and what was received", () => {
    const text = refusalText({ expected: ["http://localhost:3000"], received: "http://localhost:4000", configured: true });
    expect(text).toMatch(/^Forbidden: cross-origin request refused\n/);
    expect(text).toContain("Expected a form from: http://localhost:3000");
    expect(text).toContain("Received one from: http://localhost:4000");
    expect(text).toContain("set PUBLIC_SITE_URL");
    expect(refusalText({ expected: LOCAL, received: undefined, configured: false })).toContain(
      "Received one from: a request that named no page it came from",
    );
  });

  it("is a page of its own that escapes the Origin it echoes", () => {
    const page = refusalPage({ expected: LOCAL, received: 'https://x.example"><script>alert(1)</script>', configured: false });
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain("<title>403 Forbidden: request refused");
    expect(page).toContain("<h1>This form was refused because it came from another address</h1>");
    expect(page).not.toContain("<script>");
    expect(page).toContain("&lt;script&gt;");
    for (const origin of LOCAL) expect(page).toContain(`<code>${origin}</code>`);
    expect(page).toContain("Without PUBLIC_SITE_URL");
    expect(page).toContain('<a href="http://localhost:4000">');
  });
});
