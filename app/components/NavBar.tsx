import { ChevronDown, Menu, Sparkles, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { plainSiteLinks, SiteLinksProvider, useSiteLinks } from "~/lib/islands";
import { useHydrated } from "~/lib/use-hydrated";

const RESOURCES = [
  { to: "/how-it-works", label: "How It Works" },
  { to: "/industries", label: "Industries" },
];

// Plain class strings (no tailwind-merge): this component ships on every page.
const linkBase = "rounded-md px-3 py-2 text-sm font-medium hover:bg-white/10 hover:text-white";
const linkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? `${linkBase} text-white underline underline-offset-8` : `${linkBase} text-slate-200`;
/** In the phone menu every link is a full-width row at least 44 px tall: an easy tap target. */
const menuLinkClass = (state: { isActive: boolean }) => `${linkClass(state)} flex min-h-11 items-center`;
const accentButton =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md bg-accent px-3 text-sm font-semibold text-accent-foreground hover:bg-accent/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white";

/**
 * Fixed top bar (spec: shared navigation). Below 768 px it becomes a menu that closes on route change.
 * No React Router here: the home page hydrates it as an island without a router (app/lib/islands.tsx).
 */
export function NavBar({ bookDemoUrl }: { bookDemoUrl: string }) {
  const { Link, NavLink, locationKey } = useSiteLinks();
  const hydrated = useHydrated();
  // The phone menu is a popover its button opens by itself (popovertarget): it works before the
  // page's script has loaded (ADR 0016) and without JavaScript, and the browser closes it on Escape
  // or a tap outside, returning focus to the button. Script only mirrors its state into
  // aria-expanded and closes it on a client-side navigation.
  const menuRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const menu = menuRef.current;
    if (!menu || !("popover" in HTMLElement.prototype)) return;
    const onToggle = (e: Event) => setOpen((e as ToggleEvent).newState === "open");
    menu.addEventListener("toggle", onToggle);
    // Opened before hydration.
    setOpen(menu.matches(":popover-open"));
    return () => menu.removeEventListener("toggle", onToggle);
  }, []);

  // Any navigation closes it (on the islands page a link loads a new document anyway).
  const shownAt = useRef(locationKey);
  useEffect(() => {
    if (shownAt.current === locationKey) return;
    shownAt.current = locationKey;
    const menu = menuRef.current;
    if (menu && "popover" in HTMLElement.prototype && menu.matches(":popover-open")) menu.hidePopover();
  }, [locationKey]);

  return (
    <header className="group/bar fixed inset-x-0 top-0 z-40 border-b border-white/10 bg-ink/95 text-white backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold tracking-tight" aria-label="AI Automation Apps home">
          <span className="grid size-8 place-items-center rounded-lg bg-primary">
            <Sparkles className="size-4" aria-hidden />
          </span>
          <span>AI Automation Apps</span>
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          <NavLink to="/apps" className={linkClass}>
            Solutions
          </NavLink>
          <ResourcesMenu />
          <a
            href={bookDemoUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-md px-3 py-2 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white"
          >
            Book Demo<span className="sr-only"> (opens in a new tab)</span>
          </a>
          <a href={bookDemoUrl} target="_blank" rel="noopener noreferrer" className={`${accentButton} ml-2 h-9`}>
            BOOK DEMO<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>

        <button
          type="button"
          className="rounded-md p-2 text-slate-100 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white md:hidden"
          popoverTarget="mobile-menu"
          aria-controls="mobile-menu"
          // Before hydration the browser exposes the popover's state itself.
          aria-expanded={hydrated ? open : undefined}
        >
          {/* The icon and name follow the popover in CSS, so they are right without script too. */}
          <Menu className="size-6 group-has-[#mobile-menu:popover-open]/bar:hidden" aria-hidden />
          <X className="hidden size-6 group-has-[#mobile-menu:popover-open]/bar:block" aria-hidden />
          <span className="sr-only group-has-[#mobile-menu:popover-open]/bar:hidden">Open menu</span>
          <span className="sr-only hidden group-has-[#mobile-menu:popover-open]/bar:inline">Close menu</span>
        </button>
      </nav>

      <div
        ref={menuRef}
        id="mobile-menu"
        popover="auto"
        className="fixed inset-x-0 bottom-auto top-16 m-0 max-h-[calc(100dvh-4rem)] w-full max-w-none overflow-y-auto border-0 border-t border-white/10 bg-ink p-0 px-4 pb-4 text-white md:hidden"
      >
        <ul className="flex flex-col gap-1 pt-2">
          <li>
            <NavLink to="/apps" className={menuLinkClass}>
              Solutions
            </NavLink>
          </li>
          <li className="px-3 pt-2 text-xs font-semibold uppercase tracking-wider text-slate-300">Resources</li>
          {RESOURCES.map((r) => (
            <li key={r.to}>
              <NavLink to={r.to} className={menuLinkClass}>
                {r.label}
              </NavLink>
            </li>
          ))}
          <li>
            <a
              href={bookDemoUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="flex min-h-11 items-center rounded-md px-3 py-2 text-sm font-medium text-slate-200 hover:bg-white/10"
            >
              Book Demo<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
          <li className="pt-2">
            <a href={bookDemoUrl} target="_blank" rel="noopener noreferrer" className={`${accentButton} h-11 w-full`}>
              BOOK DEMO<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        </ul>
      </div>
    </header>
  );
}

/**
 * Resources menu as a disclosure (button + list of links): the WAI-ARIA pattern for site navigation,
 * far lighter than a positioned menu widget. Escape and a click outside close it.
 */
function ResourcesMenu() {
  const ref = useRef<HTMLDivElement>(null);
  const { Link, locationKey } = useSiteLinks();
  const hydrated = useHydrated();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === locationKey;
  const setOpen = (next: boolean | ((v: boolean) => boolean)) =>
    setOpenAt((typeof next === "function" ? next(open) : next) ? locationKey : null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpenAt(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpenAt(null);
        ref.current?.querySelector("button")?.focus();
      }
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div ref={ref} className="group/resources relative">
      <button
        type="button"
        aria-expanded={hydrated ? open : undefined}
        aria-controls="resources-menu"
        onClick={() => setOpen((v) => !v)}
        className="flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
      >
        Resources{" "}
        <ChevronDown className={open ? "size-4 rotate-180 transition-transform" : "size-4 transition-transform"} aria-hidden />
      </button>
      {/* Before hydration (or without JavaScript) the list shows while the pointer or focus is on the
          menu; the transparent strip above it keeps the hover across the gap under the button. */}
      <ul
        id="resources-menu"
        hidden={hydrated ? !open : undefined}
        className={
          hydrated
            ? "absolute left-0 top-full mt-2 w-48 rounded-md border bg-popover p-1 text-popover-foreground shadow-lg"
            : "absolute left-0 top-full mt-2 hidden w-48 rounded-md border bg-popover p-1 text-popover-foreground shadow-lg before:absolute before:inset-x-0 before:-top-3 before:h-3 group-focus-within/resources:block group-hover/resources:block"
        }
      >
        {RESOURCES.map((r) => (
          <li key={r.to}>
            <Link
              to={r.to}
              className="block rounded-sm px-3 py-2 text-sm hover:bg-muted focus-visible:bg-muted focus-visible:outline-none"
            >
              {r.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The bar as the home page's islands script hydrates it: plain links, active by `pathname`. */
export function NavBarIsland({ bookDemoUrl, pathname }: { bookDemoUrl: string; pathname: string }) {
  return (
    <SiteLinksProvider value={plainSiteLinks(pathname)}>
      <NavBar bookDemoUrl={bookDemoUrl} />
    </SiteLinksProvider>
  );
}
