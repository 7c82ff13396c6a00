import { CLIENT_IP_HEADER } from "../http/client-ip.server";
import { getUser } from "../auth/session.server";
import { db } from "../db/client.server";
import { log, errorMessage } from "../log.server";
import { submitLead } from "./leads.server";
import type { FieldErrors } from "./validation.server";

/** Largest accepted body: the form's fields with a 2,000-character message fit in a fraction of it. */
export const MAX_CALLBACK_BODY_BYTES = 16 * 1024;

export type CallbackResponse = { ok: true } | { ok?: false; error: string; fields?: FieldErrors };

const SUBMISSION_FAILED_MESSAGE = "Please try again later";

/**
 * The callback request over HTTP, shared by `POST /api/callback` (JSON or form-encoded) and the
 * /live-training action (the form posted without JavaScript). Never throws: a fault is logged and
 * answered 503 without details.
 */
export async function handleCallbackRequest(
  request: Request,
  source = "live-training",
): Promise<{ status: number; body: CallbackResponse }> {
  try {
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > MAX_CALLBACK_BODY_BYTES) return { status: 413, body: { error: "Request body too large" } };
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_CALLBACK_BODY_BYTES) return { status: 413, body: { error: "Request body too large" } };

    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    let body: unknown;
    if (type === "application/json") {
      try {
        body = JSON.parse(text);
      } catch {
        return { status: 400, body: { error: "Invalid JSON body" } };
      }
    } else if (type === "application/x-www-form-urlencoded") {
      const params = new URLSearchParams(text);
      const keys = new Set(params.keys());
      if ([...keys].some((k) => params.getAll(k).length > 1)) return { status: 400, body: { error: "Repeated field" } };
      body = Object.fromEntries(params);
    } else {
      return { status: 415, body: { error: "Send the form as JSON or form-encoded" } };
    }

    const ip = request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
    const user = await getUser(request).catch(() => null);
    const result = await submitLead(db(), body, { ip, userId: user?.id ?? null, source });
    switch (result.status) {
      case "accepted":
        return { status: 200, body: { ok: true } };
      case "invalid":
        return { status: 400, body: { error: result.error, fields: result.fields } };
      case "limited":
        return { status: 429, body: { error: result.error } };
    }
  } catch (error) {
    log.error("callback request failed", { error: errorMessage(error) });
    return { status: 503, body: { error: SUBMISSION_FAILED_MESSAGE } };
  }
}
