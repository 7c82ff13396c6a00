import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "AI Automation Apps";

interface RootData {
  siteUrl: string;
}

/**
 * The picture a shared link shows, one designed image per kind of page (1200x630 PNGs made by
 * scripts/og-images.mjs and committed under public/og/).
 */
export const OG_IMAGES = {
  site: { path: "/og/site.png", alt: "AI Automation Apps: ready-made AI apps for your business" },
  apps: { path: "/og/apps.png", alt: "181 ready-made AI apps across 22 industries, with a 3-day free trial" },
  packages: { path: "/og/packages.png", alt: "AI automation packages: one-time or monthly, with a free trial" },
  partners: { path: "/og/partners.png", alt: "Partner with AI Automation Apps: affiliates and distributors" },
} as const;
type OgImageKind = keyof typeof OG_IMAGES;
const OG_IMAGE_WIDTH = 1200;
const OG_IMAGE_HEIGHT = 630;

interface SeoBase {
  title: string;
  description: string;
  /** The shared-link picture; the site's own by default. */
  image?: OgImageKind;
}

type SeoInput =
  | (SeoBase & {
      /** Canonical path, e.g. '/apps'. Query strings are never canonical. */
      path: string;
      noindex?: false;
    })
  | (SeoBase & {
      /** The page's address for og:url; optional, since a page without one of its own (404) has none. */
      path?: string;
      /** Pages that must not be indexed (payment returns, 404). */
      noindex: true;
    });

/** PUBLIC_SITE_URL, from the root loader's data among a route's matches ('' when absent). */
export function siteUrlOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined;
  return root?.siteUrl ?? "";
}

/**
 * Title, description, canonical link, Open Graph tags and the large Twitter card for a route's `meta` export.
 * The absolute base URL comes from the root loader (PUBLIC_SITE_URL), never from the request.
 * A noindex page gets no canonical link: naming a canonical URL asks for that URL to be indexed,
 * the opposite of noindex, and search engines treat the pair as conflicting signals.
 */
export function seo(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, input: SeoInput): MetaDescriptor[] {
  const base = siteUrlOf(matches);
  const url = input.path === undefined ? undefined : `${base}${input.path}`;
  const title = input.title.includes(SITE_NAME) ? input.title : `${input.title} | ${SITE_NAME}`;
  const image = OG_IMAGES[input.image ?? "site"];
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    ...(url && !input.noindex ? [{ tagName: "link", rel: "canonical", href: url }] : []),
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    ...(url ? [{ property: "og:url", content: url }] : []),
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:image", content: `${base}${image.path}` },
    { property: "og:image:width", content: String(OG_IMAGE_WIDTH) },
    { property: "og:image:height", content: String(OG_IMAGE_HEIGHT) },
    { property: "og:image:alt", content: image.alt },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
