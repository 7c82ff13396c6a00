import { describe, expect, it } from "vitest";
import { authorised, metricsToken } from "./metrics.server.js";
import { tracingRequested } from "./tracing.server.js";

describe("/metrics access", () => {
  it("is off without METRICS_TOKEN (or with a blank one)", () => {
    expect(metricsToken({})).toBeNull();
    expect(metricsToken({ METRICS_TOKEN: "   " })).toBeNull();
    expect(metricsToken({ METRICS_TOKEN: "0123456789abcdef" })).toBe("0123456789abcdef");
  });

  it("takes exactly `Bearer <token>`", () => {
    const token = "0123456789abcdef-secret";
    expect(authorised(`Bearer ${token}`, token)).toBe(true);
    for (const header of [
      undefined,
      "",
      token,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `bearer ${token}`,
      `Basic ${token}`,
    ]) {
      expect(authorised(header, token)).toBe(false);
    }
  });
});

describe("tracing", () => {
  it("is asked for only by the standard OTEL_* variables, and OTEL_SDK_DISABLED wins", () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: "x" })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" })).toBe(false);
    expect(tracingRequested({ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" })).toBe(false);
  });
});
