import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "AI Automation Apps";

interface RootData {
  siteUrl: string;
}

interface SeoInput {
  title: string;
  description: string;
  /** Canonical path, e.g. '/apps'. Query strings are never canonical. */
  path: string;
  /** Pages that must not be indexed (payment returns, 404). */
  noindex?: boolean;
}

/**
 * Title, description, canonical link and Open Graph tags for a route's `meta` export.
 * The absolute base URL comes from the root loader (PUBLIC_SITE_URL), never from the request.
 */
export function seo(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, input: SeoInput): MetaDescriptor[] {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined;
  const base = root?.siteUrl ?? "";
  const url = `${base}${input.path}`;
  const title = input.title.includes(SITE_NAME) ? input.title : `${input.title} | ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { name: "twitter:card", content: "summary" },
  ];
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
