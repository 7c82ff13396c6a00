import { brotliCompressSync, gzipSync } from "node:zlib";
import { preferredEncoding } from "./content-encoding.server";
import { PER_REQUEST_BROTLI } from "./per-request-compression.server.js";

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * A response body the server already holds whole (a rendered document, a data request's answer),
 * in the coding the client prefers, with Content-Encoding and Vary set; the compression middleware
 * then passes it on as it is (it leaves an encoded response alone).
 *
 * Compressed at once and on this thread: the middleware's stream hands each body to libuv's thread
 * pool in chunks, and that hand-off cost more CPU than compressing the body itself
 * (docs/decisions/0099). The render or encoding before it is already this thread's work.
 */
export function compressWholeBody(
  acceptEncoding: string | null,
  body: Buffer<ArrayBuffer>,
  headers: Headers,
): Buffer<ArrayBuffer> {
  if (NO_TRANSFORM.test(headers.get("Cache-Control") ?? "")) return body;
  headers.append("Vary", "Accept-Encoding");
  const encoding = preferredEncoding(acceptEncoding ?? undefined);
  if (encoding === "identity") return body;
  headers.set("Content-Encoding", encoding);
  return encoding === "br" ? brotliCompressSync(body, PER_REQUEST_BROTLI) : gzipSync(body);
}
