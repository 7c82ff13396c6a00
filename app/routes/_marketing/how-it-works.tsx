import { CalendarCheck, CodeXml, Gift, Rocket } from "lucide-react";
import { Link } from "react-router";
import { CLAIMS } from "~/catalogue/marketing";
import { PageHero } from "~/components/marketing/PageHero";
import { BUTTON, cx, ExternalLink, SectionHeading } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/how-it-works";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "How It Works",
    description:
      "From a 3-day free trial with an initial draft to launch and ongoing support: how we build and run your AI automation in 2-4 weeks.",
    path: "/how-it-works",
  });

const STEPS = [
  {
    icon: Gift,
    title: "Start Your 3-Day Free Trial",
    text: "Sign up in minutes and tell us about your business. We prepare an initial draft of your AI app. No payment required.",
    detail: "3-day free trial · initial draft · no payment",
  },
  {
    icon: CalendarCheck,
    title: "Discovery Call & Consultation",
    text: "A 30-minute call with an AI specialist to map your workflows, goals, integrations and the results you want to see.",
    detail: "30-minute consultation",
  },
  {
    icon: CodeXml,
    title: "Development & Build",
    text: "Our team builds, trains and tests your AI app on your data and tools, with progress updates along the way.",
    detail: `Typical delivery: ${CLAIMS.delivery}`,
  },
  {
    icon: Rocket,
    title: "Launch & Ongoing Support",
    text: "We launch, monitor and keep improving your automation. Our team is there whenever you need us.",
    detail: `${CLAIMS.support} support · ${CLAIMS.uptime} uptime`,
  },
];

const INDUSTRIES = [
  { name: "Real Estate & Mortgage", text: "Qualify buyers, book viewings and follow up on every listing enquiry automatically." },
  { name: "Health & Wellness", text: "Online booking, appointment reminders and intake forms that cut no-shows." },
  { name: "Restaurants & Hospitality", text: "Reservations, order questions and review requests handled around the clock." },
  { name: "Coaching & Consulting", text: "Discovery-call booking, onboarding sequences and client check-ins on autopilot." },
  { name: "E-commerce", text: "Product questions, order tracking and abandoned-cart recovery in every channel." },
  { name: "Legal & Financial", text: "Client intake, document collection and consultation scheduling with full audit trails." },
];

export default function HowItWorks() {
  const { env } = useRootData();
  return (
    <>
      <PageHero
        eyebrow="Simple, proven process"
        title="How It Works"
        lead={`From free trial to a live AI app in ${CLAIMS.delivery}. Four clear steps, one dedicated team.`}
      >
        <div className="mt-8 flex justify-center">
          <Link to="/industries" className={cx(BUTTON.lg, BUTTON.amber)}>
            Start Free Trial
          </Link>
        </div>
      </PageHero>

      <section aria-labelledby="steps-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading id="steps-title" eyebrow="Four steps" title="From Idea to Automation" />
        <ol className="mt-12 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ icon: Icon, title, text, detail }, i) => (
            <li key={title} className="relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm">
              <div className="flex items-center justify-between">
                <span className="grid size-12 place-items-center rounded-xl bg-secondary text-primary">
                  <Icon className="size-6" aria-hidden />
                </span>
                <span className="rounded-full bg-secondary px-3 py-1 text-sm font-semibold text-secondary-foreground">
                  Step {i + 1}
                </span>
              </div>
              <h3 className="mt-4 text-lg font-bold">{title}</h3>
              <p className="mt-2 flex-1 text-muted-foreground">{text}</p>
              <p className="mt-4 text-sm font-semibold text-primary">{detail}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="promise-title" className="bg-ink py-16 text-white">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <h2 id="promise-title" className="sr-only">
            Our track record
          </h2>
          <dl className="grid grid-cols-1 gap-8 text-center sm:grid-cols-3">
            <div className="flex flex-col-reverse">
              <dt className="mt-1 text-slate-300">Client satisfaction</dt>
              <dd className="text-5xl font-extrabold text-amber-300">{CLAIMS.satisfaction}</dd>
            </div>
            <div className="flex flex-col-reverse">
              <dt className="mt-1 text-slate-300">Typical delivery</dt>
              <dd className="text-5xl font-extrabold text-amber-300">{CLAIMS.delivery}</dd>
            </div>
            <div className="flex flex-col-reverse">
              <dt className="mt-1 text-slate-300">Free trial, no payment</dt>
              <dd className="text-5xl font-extrabold text-amber-300">3 days</dd>
            </div>
          </dl>
        </div>
      </section>

      <section aria-labelledby="industries-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading
          id="industries-title"
          eyebrow="Built for your industry"
          title="Automation That Speaks Your Customers' Language"
          lead={`${CLAIMS.industriesSupported}, each with ready-made apps and proven workflows.`}
        />
        <ul className="mt-12 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {INDUSTRIES.map((ind) => (
            <li key={ind.name} className="rounded-2xl border bg-card p-6">
              <h3 className="font-bold">{ind.name}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{ind.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="hiw-cta-title" className="bg-secondary py-16">
        <div className="mx-auto flex max-w-3xl flex-col items-center px-4 text-center sm:px-6">
          <h2 id="hiw-cta-title" className="text-3xl font-bold tracking-tight text-balance text-secondary-foreground">
            Ready to Get Started?
          </h2>
          <p className="mt-3 text-lg text-muted-foreground">
            Choose your industry and we will draft your first AI app during your free trial.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/industries" className={cx(BUTTON.lg, BUTTON.primary)}>
              Start Free Trial
            </Link>
            <ExternalLink href={env.BOOK_DEMO_URL} className={cx(BUTTON.lg, BUTTON.outline)}>
              BOOK DEMO
            </ExternalLink>
          </div>
        </div>
      </section>
    </>
  );
}
