import { Check, Handshake, MapPin } from "lucide-react";
import { Link } from "react-router";
import { AFFILIATE_COMMISSION_RATE, DISTRIBUTOR_PROGRAM, type DistributorFees } from "~/catalogue/plans";
import { formatDollars } from "~/catalogue/pricing";
import { PageHero } from "~/components/marketing/PageHero";
import { BUTTON, cx, SectionHeading } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import { currentPlanPrices } from "~/server/catalogue/current-plan-prices.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/earn";
import { pageCacheHandle } from "~/lib/page-cache";

const COMMISSION = `${Math.round(AFFILIATE_COMMISSION_RATE * 100)}%`;
/** The distributor program's price at the fees the loader read (they change in the console). */
const priceOf = (fees: DistributorFees) => `${formatDollars(fees.setupFee)} setup + ${formatDollars(fees.monthlyFee)}/month`;

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015),
// dropped when a plan price changes (catalogue-version.server.ts).
export const handle = pageCacheHandle;

export async function loader() {
  return { fees: (await currentPlanPrices(db())).distributor };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo(matches, {
    title: "Earn With Us: Partner Programs",
    description: `Partner with us: earn ${COMMISSION} lifetime commission as an affiliate, or run your own AI business as a distributor (${loaderData ? `${priceOf(loaderData.fees)}, ` : ""}${DISTRIBUTOR_PROGRAM.trialDays}-day free trial).`,
    path: "/earn",
    image: "partners",
  });

const programsOf = (fees: DistributorFees) => [
  {
    icon: Handshake,
    name: "Affiliate Program",
    price: `${COMMISSION} lifetime commission`,
    priceNote: "Free to join",
    text: "Recommend our AI apps to businesses you know and earn a share of every payment they make, for as long as they stay a customer.",
    features: [
      `${COMMISSION} commission on every referral, for life`,
      "Your own referral link",
      "Free to join, no quotas",
      "Dashboard to track referrals and earnings",
    ],
    cta: { to: "/affiliate-signup", label: "Join the Affiliate Program" },
    highlight: false,
  },
  {
    icon: MapPin,
    name: "Distributor Program",
    price: priceOf(fees),
    priceNote: `${DISTRIBUTOR_PROGRAM.trialDays}-day free trial`,
    text: "Run your own AI automation business: sell our 181+ ready-made apps in an exclusive territory with training and support from our team.",
    features: [
      `${formatDollars(fees.setupFee)} one-time setup fee plus ${formatDollars(fees.monthlyFee)} per month`,
      `${DISTRIBUTOR_PROGRAM.trialDays}-day free trial`,
      "Exclusive territory",
      "Training portal, sales kit and ongoing support",
    ],
    cta: { to: "/distributors", label: "Explore the Distributor Program" },
    highlight: true,
  },
];

export default function Earn({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        eyebrow="Partner programs"
        title="Earn With Us"
        lead="Businesses everywhere need AI automation. Refer them as an affiliate, or build your own AI business as a distributor."
      />

      <section aria-labelledby="programs-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <SectionHeading id="programs-title" eyebrow="Choose your path" title="Two Ways to Partner" />
        <div className="mt-12 grid grid-cols-1 gap-6 lg:grid-cols-2">
          {programsOf(loaderData.fees).map(({ icon: Icon, ...p }) => (
            <article
              key={p.name}
              aria-labelledby={`${p.cta.to.slice(1)}-title`}
              className={cx(
                "flex min-w-0 flex-col rounded-2xl border bg-card p-6 shadow-sm sm:p-8",
                p.highlight && "border-primary ring-2 ring-primary",
              )}
            >
              <span className="grid size-12 place-items-center rounded-xl bg-secondary text-primary">
                <Icon className="size-6" aria-hidden />
              </span>
              <h3 id={`${p.cta.to.slice(1)}-title`} className="mt-4 text-2xl font-bold">
                {p.name}
              </h3>
              <p className="mt-3 text-3xl font-extrabold tracking-tight text-primary">{p.price}</p>
              <p className="text-sm font-semibold text-muted-foreground">{p.priceNote}</p>
              <p className="mt-4 text-muted-foreground">{p.text}</p>
              <ul className="mt-6 flex-1 space-y-3">
                {p.features.map((f) => (
                  <li key={f} className="flex gap-3">
                    <Check className="mt-0.5 size-5 shrink-0 text-emerald-700" aria-hidden />
                    <span>{f}</span>
                  </li>
                ))}
              </ul>
              <Link to={p.cta.to} className={cx(BUTTON.lg, p.highlight ? BUTTON.primary : BUTTON.outline, "mt-8 w-full")}>
                {p.cta.label}
              </Link>
            </article>
          ))}
        </div>
      </section>

      <section aria-labelledby="compare-title" className="bg-muted py-16">
        <div className="mx-auto max-w-4xl px-4 sm:px-6">
          <SectionHeading id="compare-title" title="Which Program Is Right for You?" />
          <div className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2">
            <div className="rounded-2xl border bg-card p-6">
              <h3 className="font-bold">Choose the Affiliate Program if…</h3>
              <p className="mt-2 text-muted-foreground">
                you already have an audience or a network of business owners and want to earn {COMMISSION} for life on the
                customers you send us, with no upfront cost.
              </p>
            </div>
            <div className="rounded-2xl border bg-card p-6">
              <h3 className="font-bold">Choose the Distributor Program if…</h3>
              <p className="mt-2 text-muted-foreground">
                you want to build a business of your own: an exclusive territory, training and a full catalogue of AI apps to
                sell, with unlimited earning potential.
              </p>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
