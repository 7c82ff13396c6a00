import type { NextFunction, Request, Response } from "express";
import { env } from "../env.server";
import { log } from "../log.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Server-to-server endpoints authenticated by their own signatures (payment webhooks). */
const EXEMPT_PREFIXES = ["/api/webhooks/"];

/** Whether a request's Origin header is one the site accepts state-changing requests from. */
export function originAccepted(origin: string | undefined, siteOrigins: readonly string[]): boolean {
  return origin !== undefined && siteOrigins.includes(origin);
}

/**
 * CSRF defence for every state-changing request: the Origin header must be present and one of the
 * site's own origins (PUBLIC_SITE_URL's, or this machine's loopback names on PORT when it is unset).
 * A missing, `null` or foreign Origin gets 403, a page that says why, and a log line naming both
 * origins, so an operator who reaches the site by another address sees what to configure.
 */
export function originCheck(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method) || EXEMPT_PREFIXES.some((p) => req.path.startsWith(p))) return next();
  const origin = req.get("origin");
  const e = env();
  if (originAccepted(origin, e.SITE_ORIGINS)) return next();
  const refusal = { expected: e.SITE_ORIGINS, received: origin, configured: e.SITE_URL_CONFIGURED };
  log.warn("cross-origin request refused", {
    method: req.method,
    path: req.path,
    expected: e.SITE_ORIGINS.join(" "),
    received: origin ?? "(none)",
  });
  res.status(403).set("Cache-Control", "no-store");
  // A browser's form post or navigation asks for HTML; fetch calls and scripts get the same words as text.
  if (/\btext\/html\b/i.test(req.get("accept") ?? "")) res.type("html").send(refusalPage(refusal));
  else res.type("text/plain").send(refusalText(refusal));
}

export interface Refusal {
  /** The origins the site accepts. */
  expected: readonly string[];
  /** The Origin header the request carried, if any. */
  received: string | undefined;
  /** Whether PUBLIC_SITE_URL names the site (false: a local install on its loopback origins). */
  configured: boolean;
}

const describeReceived = (received: string | undefined) =>
  received === undefined
    ? "a request that named no page it came from"
    : received === "null"
      ? "a page with no address (null)"
      : received;

/** The refusal in plain words: why, what was expected and received, and what to do. */
export function refusalText({ expected, received, configured }: Refusal): string {
  const fix = configured
    ? "If you run this site and people reach it at another address, set PUBLIC_SITE_URL to that address and restart it."
    : "If you run this site and reach it at another address, set PUBLIC_SITE_URL to that address and restart it.";
  return [
    "Forbidden: cross-origin request refused",
    "",
    "This site accepts forms only from its own pages, to protect your account from other websites.",
    `Expected a form from: ${expected.join(", ")}`,
    `Received one from: ${describeReceived(received)}`,
    "",
    `Go back, reload the page at ${expected[0]} and try again. ${fix}`,
    "",
  ].join("\n");
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The refusal as a page of its own (no app shell: it is answered before the router runs). */
export function refusalPage({ expected, received, configured }: Refusal): string {
  const home = escapeHtml(expected[0] ?? "/");
  const list = expected.map((o) => `<code>${escapeHtml(o)}</code>`).join(", ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>403 Forbidden: request refused | AI Automation Apps</title>
<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem;
    font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #0f172a; color: #0f172a; }
  main { max-width: 36rem; width: 100%; background: #fff; border-radius: 1rem; padding: clamp(1.25rem, 5vw, 2rem); box-shadow: 0 20px 50px rgb(0 0 0 / .35); }
  .status { margin: 0; font-size: .8rem; font-weight: 700; letter-spacing: .08em; text-transform: uppercase; color: #4338ca; }
  h1 { margin: .25rem 0 1rem; font-size: 1.6rem; line-height: 1.25; }
  dl { margin: 1rem 0; padding: 1rem; background: #f1f5f9; border-radius: .5rem; }
  dt { font-weight: 600; font-size: .9rem; }
  dd { margin: 0 0 .5rem; overflow-wrap: anywhere; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
  a { color: #4338ca; font-weight: 600; }
  .note { font-size: .9rem; color: #475569; }
</style>
</head>
<body>
<main>
<p class="status">403 Forbidden</p>
<h1>This form was refused because it came from another address</h1>
<p>This site accepts forms only from its own pages, which protects your account from other websites acting in your name. Nothing was changed.</p>
<dl>
<dt>Forms are accepted from</dt><dd>${list}</dd>
<dt>This one came from</dt><dd><code>${escapeHtml(describeReceived(received))}</code></dd>
</dl>
<p><a href="${home}">Open the site at ${home}</a>, then fill in the form again.</p>
<p class="note">Running this site yourself? ${
    configured
      ? "PUBLIC_SITE_URL names the address above. If people reach the site at another one, set PUBLIC_SITE_URL to it and restart."
      : "Without PUBLIC_SITE_URL, forms are accepted only from this machine (localhost, 127.0.0.1 or [::1]) on the port the server listens on. Set PUBLIC_SITE_URL to the address people use and restart."
  }</p>
</main>
</body>
</html>
`;
}
