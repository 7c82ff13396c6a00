import { afterEach, describe, expect, it, vi } from "vitest";
import { postCheckout } from "./checkout-client";

const REQUEST = { kind: "plan", planType: "basic" } as const;

function answerWith(status: number, body: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(() =>
      Promise.resolve(
        new Response(typeof body === "string" ? body : JSON.stringify(body), {
          status,
          headers: { "Content-Type": typeof body === "string" ? "text/plain" : "application/json" },
        }),
      ),
    ),
  );
}

describe("postCheckout", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("passes the server's code, message and field on", async () => {
    answerWith(400, { code: "invalid_input", message: "Enter a valid email address", error: "x", field: "email" });
    expect(await postCheckout(REQUEST)).toEqual({
      code: "invalid_input",
      message: "Enter a valid email address",
      field: "email",
    });
    answerWith(409, { code: "already_owned", message: "You already own one of these add-ons" });
    expect(await postCheckout(REQUEST)).toMatchObject({ code: "already_owned" });
  });

  it("gives an answer without one of our codes the code its status stands for", async () => {
    answerWith(403, "Forbidden: cross-origin request refused");
    expect(await postCheckout(REQUEST)).toEqual({ code: "unknown" });
    answerWith(503, { error: "down" });
    expect(await postCheckout(REQUEST)).toEqual({ code: "provider_unavailable", message: "down" });
    answerWith(401, { code: "session_gone" });
    expect(await postCheckout(REQUEST)).toEqual({ code: "not_signed_in" });
    answerWith(429, "");
    expect(await postCheckout(REQUEST)).toEqual({ code: "rate_limited" });
    answerWith(413, { error: "Request body too large" });
    expect(await postCheckout(REQUEST)).toMatchObject({ code: "invalid_input" });
  });

  it("network_error when the request fails, no_checkout_url when the success has no usable address", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect(await postCheckout(REQUEST)).toEqual({ code: "network_error" });
    for (const url of [undefined, "javascript:alert(1)", "//evil.example/x", "http://evil.example"]) {
      answerWith(200, { url });
      expect(await postCheckout(REQUEST)).toEqual({ code: "no_checkout_url" });
    }
    answerWith(200, { url: "/checkout/local/cs_local_x" });
    expect(await postCheckout(REQUEST)).toEqual({ url: "/checkout/local/cs_local_x" });
  });
});
