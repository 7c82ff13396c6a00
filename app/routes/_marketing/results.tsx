import { Link } from "react-router";
import { CLAIMS } from "~/catalogue/marketing";
import { PageHero } from "~/components/marketing/PageHero";
import { BUTTON, cx, SectionHeading } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/results";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Results",
    description:
      "What AI automation delivers: 35% revenue increase, 80% time savings, 95% satisfaction and 2.8M+ AI interactions handled every month for 10,000+ businesses.",
    path: "/results",
  });

const METRICS = [
  {
    value: CLAIMS.revenueIncrease,
    label: "Revenue increase",
    text: "More enquiries answered and followed up means more closed business.",
  },
  {
    value: CLAIMS.timeSavings,
    label: "Time savings",
    text: `${CLAIMS.tasksAutomated} of repetitive tasks automated, freeing your team for real work.`,
  },
  { value: CLAIMS.satisfaction, label: "Client satisfaction", text: "Our clients rate their AI apps and our support highly." },
  {
    value: CLAIMS.satisfactionIncrease,
    label: "Satisfaction increase",
    text: "Customers get instant, accurate answers at any hour.",
  },
  {
    value: CLAIMS.interactionsMonthly,
    label: "AI interactions monthly",
    text: "Conversations, bookings and follow-ups handled every month.",
  },
  {
    value: CLAIMS.businessesAutomated,
    label: "Businesses automated",
    text: "Across 65+ industries, from solo practices to multi-site teams.",
  },
];

const CASES = [
  {
    industry: "Real Estate & Mortgage",
    title: "A brokerage that never misses a lead",
    challenge: "Agents could not answer listing enquiries fast enough in the evenings and at weekends.",
    solution: "An AI assistant qualifies buyers, answers listing questions and books viewings straight into agents' calendars.",
    outcome: `${CLAIMS.revenueIncrease} revenue increase`,
  },
  {
    industry: "Health & Wellness",
    title: "A clinic with a front desk that never sleeps",
    challenge: "Staff spent hours a day on phone bookings, reminders and rescheduling.",
    solution: "Online booking, SMS reminders and automated intake forms connected to the practice calendar.",
    outcome: `${CLAIMS.timeSavings} time savings`,
  },
  {
    industry: "E-commerce",
    title: "A store that answers every shopper instantly",
    challenge: "Order-status and product questions piled up in the inbox and slowed replies.",
    solution: "A support chatbot with order tracking and product answers, handing complex cases to the team.",
    outcome: `${CLAIMS.satisfactionIncrease} satisfaction increase`,
  },
  {
    industry: "Coaching & Consulting",
    title: "A consultancy that onboards clients on autopilot",
    challenge: "Discovery calls, onboarding emails and check-ins were all done by hand.",
    solution: "Automated discovery-call booking, onboarding sequences and client check-ins, live within weeks.",
    outcome: `Delivered in ${CLAIMS.delivery}`,
  },
];

export default function Results() {
  return (
    <>
      <PageHero
        eyebrow="Results"
        title="Real Outcomes From AI Automation"
        lead={`${CLAIMS.businessesAutomated} businesses use our AI apps to answer faster, sell more and spend less time on busywork.`}
      />

      <section aria-labelledby="metrics-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading id="metrics-title" eyebrow="By the numbers" title="The Difference AI Makes" />
        <dl className="mt-12 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {METRICS.map((m) => (
            <div key={m.label} className="flex flex-col-reverse justify-end rounded-2xl border bg-card p-6 shadow-sm">
              <dt className="mt-2">
                <span className="block font-semibold">{m.label}</span>
                <span className="mt-1 block text-sm text-muted-foreground">{m.text}</span>
              </dt>
              <dd className="text-4xl font-extrabold tracking-tight text-primary">{m.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="cases-title" className="bg-muted py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <SectionHeading
            id="cases-title"
            eyebrow="Case studies"
            title="What It Looks Like in Practice"
            lead="Typical projects by industry. Your own results depend on your business, volume and the apps you choose."
          />
          <ul className="mt-12 grid grid-cols-1 gap-6 md:grid-cols-2">
            {CASES.map((c) => (
              <li key={c.title} className="flex flex-col rounded-2xl border bg-card p-6 shadow-sm">
                <p className="text-sm font-semibold text-primary">{c.industry}</p>
                <h3 className="mt-1 text-xl font-bold">{c.title}</h3>
                <dl className="mt-4 flex-1 space-y-3 text-sm">
                  <div>
                    <dt className="font-semibold">Challenge</dt>
                    <dd className="text-muted-foreground">{c.challenge}</dd>
                  </div>
                  <div>
                    <dt className="font-semibold">Solution</dt>
                    <dd className="text-muted-foreground">{c.solution}</dd>
                  </div>
                </dl>
                <p className="mt-5 inline-flex self-start rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900">
                  {c.outcome}
                </p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="results-cta-title" className="bg-ink py-20 text-center text-white">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="results-cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Get Results Like These
          </h2>
          <p className="mt-4 text-lg text-slate-300">Start with your industry, or pick from 181+ ready-made AI apps.</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/industries" className={cx(BUTTON.lg, BUTTON.amber)}>
              Start Free Trial
            </Link>
            <Link to="/apps" className={cx(BUTTON.lg, BUTTON.onDark)}>
              Browse Ready-Made Apps
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
