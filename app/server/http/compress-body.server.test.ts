import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressWholeBody } from "./compress-body.server";

const page = Buffer.from(`<!DOCTYPE html><html><body>${"<p>Café ✓ automation</p>".repeat(200)}</body></html>`);

describe("compressWholeBody", () => {
  it("sends brotli to a browser, and says so", () => {
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    const sent = compressWholeBody("gzip, deflate, br, zstd", page, headers);
    expect(headers.get("Content-Encoding")).toBe("br");
    expect(headers.get("Vary")).toBe("Accept-Encoding");
    expect(sent.length).toBeLessThan(page.length / 10);
    expect(brotliDecompressSync(sent).equals(page)).toBe(true);
  });

  it("sends gzip to a client without brotli, keeping the Vary already there", () => {
    const headers = new Headers({ Vary: "Cookie" });
    const sent = compressWholeBody("gzip", page, headers);
    expect(headers.get("Content-Encoding")).toBe("gzip");
    expect(headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    expect(gunzipSync(sent).equals(page)).toBe(true);
  });

  it("sends the bytes as they are to a client that accepts neither, or when the response says no-transform", () => {
    const plain = new Headers();
    expect(compressWholeBody(null, page, plain)).toBe(page);
    expect(plain.get("Content-Encoding")).toBeNull();
    expect(plain.get("Vary")).toBe("Accept-Encoding");
    const noTransform = new Headers({ "Cache-Control": "private, no-transform" });
    expect(compressWholeBody("br", page, noTransform)).toBe(page);
    expect(noTransform.get("Content-Encoding")).toBeNull();
  });
});
