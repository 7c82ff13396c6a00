/** A content coding the server sends: what a client accepts decides which. */
export type Encoding = "br" | "gzip" | "identity";

/**
 * Whether an Accept-Encoding header accepts `coding` (RFC 9110 12.5.3): listed by name or by `*`
 * with a weight above zero; an explicit `coding;q=0` refuses it even when `*` is accepted.
 */
export function acceptsEncoding(header: string | undefined, coding: "br" | "gzip"): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(",")) {
    const [rawName = "", ...params] = part.split(";");
    const name = rawName.trim().toLowerCase();
    if (name !== coding && name !== "*") continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name === coding) return weight > 0;
    wildcard = weight > 0;
  }
  return wildcard;
}

/** Clients send a handful of distinct Accept-Encoding headers: each is parsed once. */
const encodingOfHeader = new Map<string, Encoding>();

/** Our preference among what the client accepts (browsers list gzip before br at equal weight). */
export function preferredEncoding(header: string | undefined): Encoding {
  const key = header ?? "";
  let encoding = encodingOfHeader.get(key);
  if (!encoding) {
    encoding = acceptsEncoding(header, "br") ? "br" : acceptsEncoding(header, "gzip") ? "gzip" : "identity";
    if (encodingOfHeader.size >= 256) encodingOfHeader.clear();
    encodingOfHeader.set(key, encoding);
  }
  return encoding;
}
