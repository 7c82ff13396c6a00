import { useCallback, useEffect, useMemo, useState } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { isPlainClick } from "~/lib/use-hydrated";
import { appsSearch, PAGE_SIZE, parseAppsQuery, type AppsQuery } from "./query";

/** Typing settles this long before the search goes to the server (each keystroke would be a request). */
const SEARCH_URL_DELAY_MS = 150;

export interface AppsQueryState {
  /** What the page shows: the URL's query, or the one being navigated to, with the text being typed. */
  query: AppsQuery;
  /** Applies a change to the URL (replacing the entry, keeping the scroll position). */
  update(patch: Partial<AppsQuery>): void;
  /** The search text as typed: on screen at once, in the URL once typing pauses. */
  type(q: string): void;
  /** The address of the page with a change applied, for links that work without JavaScript. */
  href(patch: Partial<AppsQuery>): string;
  /** href and a click handler that applies the change in place (a plain left click only). */
  linkTo(patch: Partial<AppsQuery>): { href: string; onClick(e: React.MouseEvent): void };
  /** The server is loading a new result for /apps. */
  loading: boolean;
}

/**
 * The /apps page's state is its URL (?q, industry, tab, view, reviews, show): this hook reads it
 * through React Router and writes it with setSearchParams. While a navigation is under way its
 * target is what the page shows, so a click shows at once even when the server has to answer
 * first. Only the search text lives here for a moment, while the visitor types.
 */
export function useAppsQuery(pathname = "/apps"): AppsQueryState {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const pending = navigation.location?.pathname === pathname ? navigation.location.search : null;
  const shownParams = useMemo(() => (pending === null ? searchParams : new URLSearchParams(pending)), [pending, searchParams]);
  const shownSearch = shownParams.toString();
  const urlQuery = useMemo(() => parseAppsQuery(shownParams), [shownParams]);
  // Search text the URL does not hold yet, shown in the box until it does: typed, and written to the
  // URL once typing pauses (sentFrom null), or sent from the URL `sentFrom` and on its way. React
  // Router applies a navigation in a transition, which on a slow phone renders well after the call
  // that started it: a box that showed the old URL's text meanwhile let a key pressed then (an arrow
  // into the suggestions, a letter) act on that text. Let go of once the URL holds the text, or
  // once the URL has moved on from where it was sent (another navigation overtook it).
  const [typed, setTyped] = useState<{ q: string; sentFrom: string | null } | null>(null);
  if (typed !== null && (typed.q === urlQuery.q || (typed.sentFrom !== null && typed.sentFrom !== shownSearch))) {
    setTyped(null);
  }
  const query = useMemo(() => (typed === null ? urlQuery : { ...urlQuery, q: typed.q }), [typed, urlQuery]);

  const update = useCallback(
    (patch: Partial<AppsQuery>) => {
      // A new search or industry starts again from the first cards.
      const refilter = "q" in patch || "industry" in patch;
      const next = { ...query, ...(refilter && { show: PAGE_SIZE }), ...patch };
      if ("q" in patch || refilter) setTyped({ q: next.q, sentFrom: shownSearch });
      setSearchParams(new URLSearchParams(appsSearch(next)), { replace: true, preventScrollReset: true });
    },
    [query, shownSearch, setSearchParams],
  );

  useEffect(() => {
    if (typed === null || typed.sentFrom !== null) return;
    const id = window.setTimeout(() => update({ q: typed.q }), SEARCH_URL_DELAY_MS);
    return () => window.clearTimeout(id);
    // Each keystroke (and a URL change meanwhile) starts the wait again; a click applies the text itself.
  }, [typed, update]);

  const type = useCallback((q: string) => setTyped({ q, sentFrom: null }), []);
  const href = useCallback((patch: Partial<AppsQuery>) => `${pathname}${appsSearch({ ...query, ...patch })}`, [pathname, query]);
  const linkTo = useCallback(
    (patch: Partial<AppsQuery>) => ({
      href: href(patch),
      onClick: (e: React.MouseEvent) => {
        if (!isPlainClick(e)) return;
        e.preventDefault();
        update(patch);
      },
    }),
    [href, update],
  );

  return {
    query,
    update,
    type,
    href,
    linkTo,
    loading: navigation.state === "loading" && navigation.location.pathname === pathname,
  };
}
