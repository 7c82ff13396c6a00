import { useMemo, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { Footer } from "~/components/Footer";
import { NavBar, NavBarIsland } from "~/components/NavBar";
import { Ticker } from "~/components/Ticker";
import { Island, SiteLinksProvider, useIslandsDocument, type SiteLinks } from "~/lib/islands";
import { useRootData } from "~/root";

/**
 * Shell of every public page: fixed nav, the ticker banner under it, content, footer. Also drawn
 * around the site's 404 by routes outside the marketing layout (/admin for non-operators), so a
 * hidden page looks like any unknown address.
 */
export function MarketingShell({ children }: { children: ReactNode }) {
  const { env, year } = useRootData();
  const location = useLocation();
  const islands = useIslandsDocument();
  const routerLinks = useMemo<SiteLinks>(
    () => ({ Link, NavLink, locationKey: location.key, pathname: location.pathname }),
    [location.key, location.pathname],
  );
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white p-2 text-black focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      {islands ? (
        // The islands page has no router in the browser: the bar hydrates on its own with plain links.
        <Island name="nav" component={NavBarIsland} props={{ bookDemoUrl: env.BOOK_DEMO_URL, pathname: location.pathname }} />
      ) : (
        <SiteLinksProvider value={routerLinks}>
          <NavBar bookDemoUrl={env.BOOK_DEMO_URL} />
        </SiteLinksProvider>
      )}
      <Island name="ticker" component={Ticker} props={{}} />
      <main id="main" className="pt-24">
        {children}
      </main>
      <Footer bookDemoUrl={env.BOOK_DEMO_URL} year={year} />
    </>
  );
}
