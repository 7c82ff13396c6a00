import { data } from "react-router";
import { getUser, type SessionUser } from "~/server/auth/session.server";

/** The answer of a POST-only /api route to any other method (its loader, and its action's first check). */
export function methodNotAllowed() {
  return data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * An /api route's JSON body, read as text first so an oversize one is refused (413) and a malformed
 * one answered (400) instead of thrown. `emptyAs`: what an empty body stands for, where the route
 * takes one; without it an empty body is malformed JSON.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  options: { emptyAs?: unknown } = {},
): Promise<{ json: unknown } | { answer: ReturnType<typeof data<{ error: string }>> }> {
  const body = await parseJsonBody(request, maxBytes, options);
  return "json" in body ? body : { answer: data({ error: body.error }, { status: body.status }) };
}

/** readJsonBody's checks, for a route that words its own refusal: the status and text of an unusable body. */
export async function parseJsonBody(
  request: Request,
  maxBytes: number,
  options: { emptyAs?: unknown } = {},
): Promise<{ json: unknown } | { status: 400 | 413; error: string }> {
  const text = await request.text();
  if (text.length > maxBytes) return { status: 413, error: "Request body too large" };
  if ("emptyAs" in options && !text.trim()) return { json: options.emptyAs };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { status: 400, error: "Invalid JSON body" };
  }
}

/**
 * The first checks of a signed-in /api POST: 405 for another method, then the session. Not
 * requireUser: its redirect to /auth would be followed by fetch and read as a 200 by the page, so a
 * signed-out request gets a 401 JSON answer.
 */
export async function signedInPost(
  request: Request,
): Promise<{ user: SessionUser } | { answer: ReturnType<typeof data<{ error: string }>> }> {
  if (request.method !== "POST") return { answer: methodNotAllowed() };
  const user = await getUser(request);
  if (!user) return { answer: data({ error: "Authentication required" }, { status: 401 }) };
  return { user };
}
