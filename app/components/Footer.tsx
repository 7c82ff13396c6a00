import { Link } from "react-router";
import { PRIVACY_PATH, TERMS_PATH } from "~/catalogue/legal";

const COLUMNS = [
  {
    title: "Product",
    links: [
      { to: "/apps", label: "Ready-Made Apps" },
      { to: "/packages", label: "Pricing & Packages" },
      { to: "/industries", label: "Industries" },
      { to: "/results", label: "Results" },
    ],
  },
  {
    title: "Resources",
    links: [
      { to: "/how-it-works", label: "How It Works" },
      { to: "/live-training", label: "Live Training" },
      { to: "/questionnaire", label: "Project Questionnaire" },
    ],
  },
  {
    title: "Partners",
    links: [
      { to: "/earn", label: "Earn With Us" },
      { to: "/distributors", label: "Distributor Program" },
      { to: "/affiliate-signup", label: "Affiliate Sign-Up" },
    ],
  },
];

export function Footer({ bookDemoUrl, year }: { bookDemoUrl: string; year: number }) {
  return (
    <footer className="border-t border-white/10 bg-ink text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">AI Automation Apps</p>
          <p className="mt-2 text-sm">Ready-made AI automation for small and mid-size businesses. 24/7 support, 99.9% uptime.</p>
          <a
            href={bookDemoUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-4 inline-block text-sm font-semibold text-white underline"
          >
            Book a demo<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
        {COLUMNS.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <p className="text-sm font-semibold uppercase tracking-wider text-white">{col.title}</p>
            <ul className="mt-3 space-y-2 text-sm">
              {col.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="hover:text-white hover:underline">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="flex flex-col items-center gap-2 border-t border-white/10 px-4 py-4 text-center text-xs sm:flex-row sm:justify-center sm:gap-4">
        <p>© {year} AI Automation Apps. Cancel anytime · 30-day money-back guarantee.</p>
        <nav aria-label="Legal">
          <ul className="flex gap-4">
            <li>
              <Link to={PRIVACY_PATH} className="underline-offset-4 hover:text-white hover:underline">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to={TERMS_PATH} className="underline-offset-4 hover:text-white hover:underline">
                Terms of Service
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
