import { describe, expect, it } from "vitest";
import { acceptsEncoding, preferredEncoding } from "./content-encoding.server";

describe("Accept-Encoding", () => {
  it("accepts a coding listed by name or by * with a weight above zero", () => {
    expect(acceptsEncoding("gzip, deflate, br, zstd", "br")).toBe(true);
    expect(acceptsEncoding("gzip, deflate, br, zstd", "gzip")).toBe(true);
    expect(acceptsEncoding("gzip;q=0.5", "br")).toBe(false);
    expect(acceptsEncoding("br;q=0, gzip", "br")).toBe(false);
    expect(acceptsEncoding("br; q=0.0", "br")).toBe(false);
    expect(acceptsEncoding("*", "br")).toBe(true);
    expect(acceptsEncoding("*;q=0", "gzip")).toBe(false);
    expect(acceptsEncoding("*, br;q=0", "br")).toBe(false);
    expect(acceptsEncoding("GZIP", "gzip")).toBe(true);
    expect(acceptsEncoding("identity", "gzip")).toBe(false);
    expect(acceptsEncoding(undefined, "gzip")).toBe(false);
    expect(acceptsEncoding("", "gzip")).toBe(false);
  });

  it("prefers brotli, then gzip, then none", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, br;q=0")).toBe("gzip");
    expect(preferredEncoding("deflate")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });
});
