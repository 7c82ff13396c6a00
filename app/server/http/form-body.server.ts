import { data, type MiddlewareFunction } from "react-router";

/**
 * Page actions read `request.formData()`, which throws a TypeError (a 500) for a body that is not a
 * form: another content type, or a multipart body without its boundary. This middleware answers
 * those with 415 before any action runs. /api/* routes read JSON themselves and are left alone.
 * Found by tests/fuzz/fuzz.js.
 */
export const formBodyGuard: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method === "GET" || request.method === "HEAD" || new URL(request.url).pathname.startsWith("/api/")) {
    return next();
  }
  // The common case: a urlencoded body always parses, so it is not read twice. Anything else
  // (multipart, or not a form at all) is parsed once here to find out.
  const mime = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mime === "application/x-www-form-urlencoded") return next();
  try {
    await request.clone().formData();
  } catch {
    throw data({ error: "Send the form as application/x-www-form-urlencoded or multipart/form-data" }, { status: 415 });
  }
  return next();
};
