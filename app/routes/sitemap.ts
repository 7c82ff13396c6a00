import { env } from "~/server/env.server";

/** Public, indexable pages. Payment returns, referral links and the 404 are left out on purpose. */
export const SITEMAP_PATHS = [
  "/",
  "/how-it-works",
  "/results",
  "/industries",
  "/goals",
  "/packages",
  "/questionnaire",
  "/apps",
  "/live-training",
  "/earn",
  "/distributors",
  "/privacy",
  "/terms",
];

export function loader() {
  const base = env().PUBLIC_SITE_URL;
  const urls = SITEMAP_PATHS.map((p) => `  <url><loc>${base}${p}</loc></url>`).join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
