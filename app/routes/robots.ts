import { env } from "~/server/env.server";

export function loader() {
  const base = env().PUBLIC_SITE_URL;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /dashboard",
    "Disallow: /auth",
    "Disallow: /api/",
    "Disallow: /payment-success",
    "Disallow: /payment-cancel",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
