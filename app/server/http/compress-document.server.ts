import { brotliCompressSync, gzipSync } from "node:zlib";
import { preferredEncoding } from "./content-encoding.server";
import { PER_REQUEST_BROTLI } from "./per-request-compression.server.js";

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * A rendered document in the coding the client prefers, with its Content-Encoding and Vary set; the
 * compression middleware then passes it on as it is (it leaves an encoded response alone).
 *
 * Compressed here, at once and on this thread, because the whole document is already one buffer:
 * the middleware's stream hands each page to libuv's thread pool in chunks, and that hand-off cost
 * more CPU than compressing the page itself (docs/decisions/0099). The render before it is already
 * this thread's work.
 */
export function compressDocument(
  acceptEncoding: string | null,
  body: Buffer<ArrayBuffer>,
  headers: Headers,
): Buffer<ArrayBuffer> {
  if (NO_TRANSFORM.test(headers.get("Cache-Control") ?? "")) return body;
  const encoding = preferredEncoding(acceptEncoding ?? undefined);
  headers.append("Vary", "Accept-Encoding");
  if (encoding === "identity") return body;
  headers.set("Content-Encoding", encoding);
  return encoding === "br" ? brotliCompressSync(body, PER_REQUEST_BROTLI) : gzipSync(body);
}
