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
  const text = await request.text();
  if (text.length > maxBytes) return { answer: data({ error: "Request body too large" }, { status: 413 }) };
  if ("emptyAs" in options && !text.trim()) return { json: options.emptyAs };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { answer: data({ error: "Invalid JSON body" }, { status: 400 }) };
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
