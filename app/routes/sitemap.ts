import { appSlugs } from "~/server/catalogue/apps.server";
import { db } from "~/server/db/client.server";
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

/** Slugs are [a-z0-9-] (app/catalogue/slugs.ts); escaping keeps the XML valid whatever a row holds. */
function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export async function loader() {
  const base = env().PUBLIC_SITE_URL;
  // Every active app's own page, in catalogue order, after the site's pages.
  const paths = [...SITEMAP_PATHS, ...(await appSlugs(db())).map((slug) => `/apps/${slug}`)];
  const urls = paths.map((p) => `  <url><loc>${xmlText(`${base}${p}`)}</loc></url>`).join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
