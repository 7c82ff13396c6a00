import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "AI Automation Apps";

interface RootData {
  siteUrl: string;
}

interface SeoBase {
  title: string;
  description: string;
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

/**
 * Title, description, canonical link and Open Graph tags for a route's `meta` export.
 * The absolute base URL comes from the root loader (PUBLIC_SITE_URL), never from the request.
 * A noindex page gets no canonical link: naming a canonical URL asks for that URL to be indexed,
 * the opposite of noindex, and search engines treat the pair as conflicting signals.
 */
export function seo(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, input: SeoInput): MetaDescriptor[] {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined;
  const base = root?.siteUrl ?? "";
  const url = input.path === undefined ? undefined : `${base}${input.path}`;
  const title = input.title.includes(SITE_NAME) ? input.title : `${input.title} | ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    ...(url && !input.noindex ? [{ tagName: "link", rel: "canonical", href: url }] : []),
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    ...(url ? [{ property: "og:url", content: url }] : []),
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { name: "twitter:card", content: "summary" },
  ];
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
