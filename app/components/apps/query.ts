import * as z from "zod/mini";
import { stripControlChars } from "~/lib/text";
import { ALL_INDUSTRIES, INDUSTRY_FILTERS } from "~/catalogue/industries";
import { APP_PRICING_TABS, type AppPricingTab } from "~/catalogue/pricing";

/**
 * The /apps page keeps all of its state in the URL (?q, industry, tab, view, reviews), so every
 * state can be linked, works without JavaScript and is rendered by the server. One parser serves
 * the loader and the browser; zod/mini keeps it small enough for the client bundle.
 */

const APP_VIEWS = ["grid", "list"] as const;
export type AppView = (typeof APP_VIEWS)[number];
type IndustryFilter = (typeof INDUSTRY_FILTERS)[number];
export const MAX_QUERY_LENGTH = 100;
/**
 * Cards rendered per step: the page shows the first 12 of the result and a 'Show more' link, which
 * keeps the server HTML and the hydration work small (a Lighthouse target) while the heading still
 * counts every match.
 */
export const PAGE_SIZE = 12;

export interface AppsQuery {
  q: string;
  industry: IndustryFilter;
  tab: AppPricingTab;
  view: AppView;
  /** The app whose reviews dialog is open, if any. */
  reviews: number | null;
  /** How many of the matching apps are rendered (the count always reports all of them). */
  show: number;
}

export const DEFAULT_APPS_QUERY: AppsQuery = {
  q: "",
  industry: ALL_INDUSTRIES,
  tab: "base",
  view: "grid",
  reviews: null,
  show: PAGE_SIZE,
};

// Invalid values fall back to the defaults instead of failing the page.
const schema = z.object({
  q: z.catch(
    z.pipe(
      z.string(),
      z.transform((s) => stripControlChars(s).slice(0, MAX_QUERY_LENGTH)),
    ),
    "",
  ),
  industry: z.catch(z.enum(INDUSTRY_FILTERS), ALL_INDUSTRIES),
  tab: z.catch(z.enum(APP_PRICING_TABS), "base"),
  view: z.catch(z.enum(APP_VIEWS), "grid"),
  reviews: z.catch(z.nullable(z.coerce.number().check(z.int(), z.positive(), z.maximum(1_000_000))), null),
  show: z.catch(z.coerce.number().check(z.int(), z.minimum(PAGE_SIZE), z.maximum(1000)), PAGE_SIZE),
});

export function parseAppsQuery(params: URLSearchParams): AppsQuery {
  return schema.parse({
    q: params.get("q") ?? "",
    industry: params.get("industry") ?? ALL_INDUSTRIES,
    tab: params.get("tab") ?? "base",
    view: params.get("view") ?? "grid",
    reviews: params.get("reviews"),
    show: params.get("show") ?? PAGE_SIZE,
  });
}

/** The query string for a state, leaving defaults out: '' for the default page, else '?q=...'. */
export function appsSearch(query: AppsQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.industry !== ALL_INDUSTRIES) params.set("industry", query.industry);
  if (query.tab !== DEFAULT_APPS_QUERY.tab) params.set("tab", query.tab);
  if (query.view !== DEFAULT_APPS_QUERY.view) params.set("view", query.view);
  if (query.reviews !== null) params.set("reviews", String(query.reviews));
  if (query.show !== PAGE_SIZE) params.set("show", String(query.show));
  const s = params.toString();
  return s ? `?${s}` : "";
}

export function sameFilters(a: Pick<AppsQuery, "q" | "industry">, b: Pick<AppsQuery, "q" | "industry">): boolean {
  return a.q === b.q && a.industry === b.industry;
}
