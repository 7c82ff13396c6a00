import { Outlet } from "react-router";
import { Footer } from "~/components/Footer";
import { NavBar } from "~/components/NavBar";
import { Ticker } from "~/components/Ticker";
import { useRootData } from "~/root";

/** Shell of every public page: fixed nav, the ticker banner under it, content, footer. */
export default function MarketingLayout() {
  const { env, year } = useRootData();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white p-2 text-black focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <NavBar bookDemoUrl={env.BOOK_DEMO_URL} />
      <Ticker />
      <main id="main" className="pt-24">
        <Outlet />
      </main>
      <Footer bookDemoUrl={env.BOOK_DEMO_URL} year={year} />
    </>
  );
}
