import { LayoutGrid, Search, X } from "lucide-react";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { INDUSTRY_CATEGORIES, searchCategories } from "~/catalogue/categories";
import { CategoryCard } from "~/components/funnel/CategoryCard";
import { FunnelSteps } from "~/components/funnel/FunnelSteps";
import { goalsHref } from "~/catalogue/funnel-params";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/industries";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Choose Your Industry",
    description:
      "AI automation for 12 industry categories, from coaching and real estate to restaurants, health, e-commerce and local services. Pick yours to see goals, timelines and pricing.",
    path: "/industries",
  });

/** How long typing pauses before the address bar catches up (the grid itself filters at once). */
const URL_SYNC_MS = 250;

export default function Industries() {
  const [params, setParams] = useSearchParams();
  const urlQuery = params.get("q") ?? "";
  const [query, setQuery] = useState(urlQuery);
  const inputRef = useRef<HTMLInputElement>(null);
  // The last value written to (or read from) the URL: lets the URL follow typing without a
  // late-arriving navigation overwriting characters typed since.
  const synced = useRef(urlQuery);

  useEffect(() => {
    if (urlQuery !== synced.current) {
      synced.current = urlQuery;
      setQuery(urlQuery);
    }
  }, [urlQuery]);

  const syncUrl = (value: string) => {
    synced.current = value;
    setParams(value.trim() ? { q: value } : {}, { replace: true, preventScrollReset: true });
  };

  useEffect(() => {
    if (query === synced.current) return;
    const timer = window.setTimeout(() => syncUrl(query), URL_SYNC_MS);
    return () => window.clearTimeout(timer);
    // syncUrl only closes over setParams, whose identity changes with every navigation.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);

  const clear = (e: MouseEvent) => {
    e.preventDefault();
    setQuery("");
    syncUrl("");
    inputRef.current?.focus();
  };

  const results = searchCategories(query);
  const trimmed = query.trim();

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <FunnelSteps current={1} />
      <div className="mt-6 flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose Your Industry</h1>
          <p className="mt-3 text-lg text-muted-foreground">
            Pick the category closest to your business. We tailor the goals, timeline and price of your AI automation to it.
          </p>
        </div>
        <Link to="/apps" className={cn(buttonVariants({ variant: "outline" }), "self-start lg:self-auto")}>
          <LayoutGrid aria-hidden />
          Browse Apps
        </Link>
      </div>

      <search className="mt-8 block">
        <form
          method="get"
          action="/industries"
          className="flex max-w-xl gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            syncUrl(query);
          }}
        >
          <div className="relative flex-1">
            <label htmlFor="industry-search" className="sr-only">
              Search industries
            </label>
            <Search
              className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              ref={inputRef}
              id="industry-search"
              type="search"
              name="q"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="Search industries, e.g. dental or plumbing"
              autoComplete="off"
              aria-describedby="industry-count"
              className="pl-9"
            />
          </div>
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </form>
      </search>

      <output id="industry-count" className="mt-3 block text-sm text-muted-foreground">
        {trimmed
          ? `${results.length} of ${INDUSTRY_CATEGORIES.length} categories match “${trimmed}”`
          : `${INDUSTRY_CATEGORIES.length} industry categories`}
      </output>

      {results.length > 0 ? (
        <ul aria-label="Industry categories" className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {results.map((c) => (
            <CategoryCard key={c.category} category={c} />
          ))}
        </ul>
      ) : (
        <div className="mt-6 flex flex-col items-center gap-4 rounded-xl border border-dashed p-10 text-center">
          <Search className="size-8 text-muted-foreground" aria-hidden />
          <h2 className="text-xl font-semibold">No industries match “{trimmed}”</h2>
          <p className="max-w-md text-muted-foreground">
            Try a broader word, clear the search, or continue with a general setup that works for any business.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link to="/industries" onClick={clear} className={buttonVariants({ variant: "default" })}>
              <X aria-hidden />
              Clear search
            </Link>
            <Link to={goalsHref({ industry: "general" })} className={buttonVariants({ variant: "outline" })}>
              Continue with General Business
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
