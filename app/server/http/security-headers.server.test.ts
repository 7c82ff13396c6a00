import { describe, expect, it, vi } from "vitest";
import { contentSecurityPolicy } from "./security-headers.server";

const settings = { STRIPE_ENABLED: false, GOOGLE_ENABLED: false, WEBINAR_ORIGIN: undefined as string | undefined };
vi.mock("../env.server", () => ({ env: () => settings }));

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `));

describe("contentSecurityPolicy", () => {
  it("allows inline scripts only by nonce or by hash, and frames only from the webinar origin", () => {
    settings.WEBINAR_ORIGIN = "https://webinar.example";
    expect(directive(contentSecurityPolicy({ nonce: "abc" }), "script-src")).toBe("script-src 'self' 'nonce-abc'");
    expect(directive(contentSecurityPolicy({ hashes: ["'sha256-x'"] }), "script-src")).toBe("script-src 'self' 'sha256-x'");
    expect(directive(contentSecurityPolicy({ hashes: [] }), "script-src")).toBe("script-src 'self'");
    expect(directive(contentSecurityPolicy({ nonce: "abc" }), "frame-src")).toBe("frame-src https://webinar.example");
    expect(contentSecurityPolicy({ nonce: "abc" })).toContain("object-src 'none'");
    settings.WEBINAR_ORIGIN = undefined;
    expect(directive(contentSecurityPolicy({ nonce: "abc" }), "frame-src")).toBe("frame-src 'none'");
  });

  it("lets no-JavaScript checkout forms be redirected to Stripe's hosted page only when Stripe is on", () => {
    settings.STRIPE_ENABLED = false;
    expect(directive(contentSecurityPolicy({ nonce: "n" }), "form-action")).toBe("form-action 'self'");
    settings.STRIPE_ENABLED = true;
    expect(directive(contentSecurityPolicy({ nonce: "n" }), "form-action")).toBe(
      "form-action 'self' https://checkout.stripe.com",
    );
    settings.STRIPE_ENABLED = false;
  });

  it("lets the no-JavaScript Google button be redirected to Google's sign-in only when Google is on", () => {
    settings.GOOGLE_ENABLED = true;
    expect(directive(contentSecurityPolicy({ nonce: "n" }), "form-action")).toBe(
      "form-action 'self' https://accounts.google.com",
    );
    settings.STRIPE_ENABLED = true;
    expect(directive(contentSecurityPolicy({ nonce: "n" }), "form-action")).toBe(
      "form-action 'self' https://checkout.stripe.com https://accounts.google.com",
    );
    settings.STRIPE_ENABLED = false;
    settings.GOOGLE_ENABLED = false;
  });
});
