import { env } from "~/server/env.server";

export function loader() {
  const base = env().PUBLIC_SITE_URL;
  // The payment return pages are not disallowed: a crawler that may not fetch them never sees
  // their noindex, and a linked URL could then still be indexed without its content.
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /dashboard",
    "Disallow: /auth",
    "Disallow: /api/",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
