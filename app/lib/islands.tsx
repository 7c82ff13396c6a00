import { createContext, useContext, type ComponentType, type ReactNode } from "react";

/**
 * Pages that load React but not React Router (docs/decisions/0019-home-page-islands.md).
 *
 * A route opts in with `handle.islands`. On a document load of such a page the server renders the
 * page as usual, then, instead of React Router's scripts, one small module that hydrates only the
 * widgets wrapped in <Island> (app/islands/home.client.tsx). Everything else on the page is
 * server-rendered HTML: links are links, so a click loads the next page as a document.
 *
 * Components rendered inside an island must not use React Router: they take their links from
 * useSiteLinks(), which gives React Router's Link/NavLink on a hydrated page (the marketing layout
 * provides them) and plain anchors on an islands page.
 */

/** The value a route puts in its `handle` to be served as an islands page. */
export const islandsHandle = { islands: true } as const;

export function routeWantsIslands(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { islands?: unknown }).islands === true;
}

/**
 * Set by entry.server.tsx for the document of an islands page: the inline module that loads the
 * islands. Null on every other document and always in the browser.
 */
export const IslandsDocumentContext = createContext<{ bootScript: string } | null>(null);

export function useIslandsDocument() {
  return useContext(IslandsDocumentContext);
}

/**
 * Wraps a widget the islands script hydrates on its own. The wrapper is `display: contents`, so the
 * page lays out as without it; its props travel as JSON in `data-props` (React escapes the attribute)
 * and must be the same props the widget was rendered with.
 */
export function Island<P extends object>({
  name,
  component: Component,
  props,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
}) {
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="contents">
      <Component {...props} />
    </div>
  );
}

export type IslandName = "nav" | "ticker" | "demo" | "reviews";

type LinkProps = { to: string; className?: string; children: ReactNode; "aria-label"?: string };
type NavLinkProps = { to: string; className: (state: { isActive: boolean }) => string; children: ReactNode };

/** How links render and which navigation the page is on (menus close when it changes). */
export type SiteLinks = {
  Link: ComponentType<LinkProps>;
  NavLink: ComponentType<NavLinkProps>;
  /** Changes on every client-side navigation; constant on a page without a router. */
  locationKey: string;
  /** Decides the active NavLink on a page without a router. */
  pathname: string;
};

// Module-level components: new component types on every render would remount the links and drop
// keyboard focus whenever a menu opens or closes.
function PlainLink({ to, children, ...rest }: LinkProps) {
  return (
    <a href={to} {...rest}>
      {children}
    </a>
  );
}

function PlainNavLink({ to, className, children }: NavLinkProps) {
  const { pathname } = useSiteLinks();
  const isActive = pathname === to || pathname.startsWith(`${to}/`);
  return (
    <a href={to} className={className({ isActive })} aria-current={isActive ? "page" : undefined}>
      {children}
    </a>
  );
}

/** Links of a page without a router: plain anchors. */
export function plainSiteLinks(pathname: string): SiteLinks {
  return { Link: PlainLink, NavLink: PlainNavLink, locationKey: "default", pathname };
}

const SiteLinksContext = createContext<SiteLinks>(plainSiteLinks(""));

export const SiteLinksProvider = SiteLinksContext.Provider;

export function useSiteLinks(): SiteLinks {
  return useContext(SiteLinksContext);
}
