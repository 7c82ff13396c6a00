/**
 * Validation of `message` events from the embedded webinar registration form (DESIGN section 4,
 * 'Embeds'). A message is accepted only when it comes from the configured webinar origin (exact
 * string match: no prefix, suffix or case tricks) AND from the iframe's own window, so another
 * frame or tab on the same origin cannot resize or hide our embed. Anything malformed is ignored.
 */

export const WEBINAR_MIN_HEIGHT = 200;
export const WEBINAR_MAX_HEIGHT = 2000;

export type WebinarMessage = { type: "resize"; height: number } | { type: "hide" };

export interface MessageLike {
  origin: string;
  source: unknown;
  data: unknown;
}

export interface ExpectedSender {
  /** The webinar service's origin, e.g. 'https://webinar.example.com'; null disables the embed. */
  origin: string | null;
  /** The iframe's contentWindow; null while the frame is not attached. */
  source: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Returns the accepted message, or null for anything that must be ignored. */
export function acceptWebinarMessage(event: MessageLike, expected: ExpectedSender): WebinarMessage | null {
  if (!expected.origin || event.origin !== expected.origin) return null;
  if (expected.source === null || expected.source === undefined || event.source !== expected.source) return null;
  const data = event.data;
  if (!isRecord(data)) return null;
  if (data.type === "hide") return { type: "hide" };
  if (data.type === "resize") {
    const h = data.height;
    if (typeof h !== "number" || !Number.isFinite(h) || h <= 0) return null;
    return { type: "resize", height: Math.round(Math.min(WEBINAR_MAX_HEIGHT, Math.max(WEBINAR_MIN_HEIGHT, h))) };
  }
  return null;
}
