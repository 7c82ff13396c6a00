import { Link } from "react-router";
import { CLAIMS, ERAS } from "~/catalogue/marketing";
import { AssistantDemo } from "~/components/marketing/AssistantDemo";
import { GlobeIcon, ShieldCheckIcon, ZapIcon } from "~/components/marketing/home-icons";
import { ReviewCarousel } from "~/components/marketing/ReviewCarousel";
import { BUTTON, cx, ExternalLink, SectionHeading } from "~/components/marketing/Section";
import { jsonLd, organizationJsonLd } from "~/lib/json-ld";
import { seo, siteUrlOf } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/home";
import { pageCacheHandle } from "~/lib/page-cache";
import { Island, islandsHandle } from "~/lib/islands";

const HOME_TITLE = "AI is the Future — Is Your Business Ready?";
const HOME_DESCRIPTION =
  "Ready-made AI automation apps for small and mid-size businesses: chatbots, booking, CRM and follow-ups. 10,000+ businesses automated, deployment in under 24 hours, 24/7 support.";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
// A document load hydrates only the widgets, without React Router (docs/decisions/0019).
export const handle = { ...pageCacheHandle, ...islandsHandle };

export const meta: Route.MetaFunction = ({ matches }) => [
  ...seo(matches, { title: HOME_TITLE, description: HOME_DESCRIPTION, path: "/" }),
  jsonLd(organizationJsonLd(siteUrlOf(matches))),
];

const STATS = [
  { value: CLAIMS.businessesAutomated, label: "Businesses automated" },
  { value: CLAIMS.interactionsMonthly, label: "AI interactions monthly" },
  { value: CLAIMS.uptime, label: "Uptime" },
  { value: CLAIMS.support, label: "Support" },
];

const RESULTS = [
  { value: CLAIMS.revenueIncrease, label: "Revenue increase", note: "From instant replies and automated follow-ups" },
  { value: CLAIMS.timeSavings, label: "Time savings", note: `${CLAIMS.tasksAutomated} of repetitive tasks automated` },
  { value: CLAIMS.satisfaction, label: "Satisfaction", note: "Client satisfaction with their AI apps" },
  { value: CLAIMS.delivery, label: "Delivery", note: "From discovery call to a live custom build" },
];

const FEATURES = [
  {
    icon: ZapIcon,
    title: "Fast Deployment",
    text: `Ready-made apps go live in ${CLAIMS.deployment}, pre-configured for your industry and connected to the tools you use.`,
  },
  {
    icon: ShieldCheckIcon,
    title: "Enterprise Security",
    text: "Your customer data stays protected with enterprise-grade security practices, access controls and monitoring.",
  },
  {
    icon: GlobeIcon,
    title: "Global Scale",
    text: `From one location to hundreds: ${CLAIMS.uptime} uptime and ${CLAIMS.support} support as your conversations grow.`,
  },
];

const primaryCta = cx(BUTTON.lg, BUTTON.amber);
const secondaryCta = cx(BUTTON.lg, BUTTON.onDark);

function CallToActions({ bookDemoUrl }: { bookDemoUrl: string }) {
  return (
    <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
      <Link to="/industries" className={primaryCta}>
        Start Free Trial
      </Link>
      <ExternalLink href={bookDemoUrl} className={secondaryCta}>
        BOOK DEMO
      </ExternalLink>
    </div>
  );
}

/** Home (spec: '/'); also rendered by /ref/{username}. Plain React + Tailwind: this page has a strict JS budget. */
export default function Home() {
  const { env } = useRootData();
  return (
    <>
      <section aria-labelledby="hero-title" className="relative -mt-24 overflow-hidden bg-ink pt-24 text-white">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_32rem_at_50%_-10%,rgba(99,102,241,0.45),transparent_70%)]"
        />
        <div className="relative mx-auto max-w-5xl px-4 pb-16 pt-16 text-center sm:px-6 sm:pt-24">
          <p className="inline-flex rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm font-medium text-indigo-100">
            {CLAIMS.industriesSupported}
          </p>
          <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
            AI is the Future — <span className="text-amber-300 sm:block">Is Your Business Ready?</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-slate-300">
            Chatbots, booking, CRM and follow-ups that work around the clock. Pick a ready-made AI app for your industry or let
            our team build yours.
          </p>
          <CallToActions bookDemoUrl={env.BOOK_DEMO_URL} />
        </div>
        <dl className="relative mx-4 grid max-w-5xl grid-cols-2 gap-px overflow-hidden rounded-t-2xl sm:mx-6 lg:mx-auto border border-b-0 border-white/10 bg-white/10 sm:grid-cols-4">
          {STATS.map((s) => (
            <div key={s.label} className="flex flex-col-reverse items-center justify-end gap-1 bg-ink px-4 py-6 text-center">
              <dt className="text-sm text-slate-300">{s.label}</dt>
              <dd className="text-3xl font-bold tracking-tight text-white">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="eras-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading
          id="eras-title"
          eyebrow="Every era has its winners"
          title="Each Technology Wave Rewarded the Early Adopters"
          lead="Businesses that embraced the new tools of their time pulled ahead. The AI era is happening now."
        />
        <ol className="mt-12 grid grid-cols-1 gap-4 md:grid-cols-4">
          {ERAS.map((era, i) => {
            const now = i === ERAS.length - 1;
            return (
              <li
                key={era.name}
                className={cx(
                  "relative rounded-2xl border p-6",
                  now ? "border-primary bg-primary text-white shadow-lg" : "bg-card",
                )}
              >
                <p className={cx("text-sm font-semibold", now ? "text-indigo-100" : "text-muted-foreground")}>{era.years}</p>
                <h3 className="mt-1 text-xl font-bold">{era.name} Era</h3>
                <p className={cx("mt-2 text-sm", now ? "text-indigo-50" : "text-muted-foreground")}>{era.text}</p>
              </li>
            );
          })}
        </ol>
      </section>

      <section aria-labelledby="results-title" className="bg-muted py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <SectionHeading
            id="results-title"
            eyebrow="Proven results"
            title="What AI Automation Does for Our Clients"
            lead="Businesses in 65+ industries rely on our AI apps every day."
          />
          <dl className="mt-12 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {RESULTS.map((r) => (
              <div key={r.label} className="flex flex-col-reverse justify-end rounded-2xl border bg-card p-6">
                <dt className="mt-1">
                  <span className="block font-semibold">{r.label}</span>
                  <span className="block text-sm text-muted-foreground">{r.note}</span>
                </dt>
                <dd className="text-4xl font-extrabold tracking-tight text-primary">{r.value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-8 text-center">
            <Link to="/results" className="font-semibold text-primary underline underline-offset-4">
              See client results
            </Link>
          </p>
        </div>
      </section>

      <section aria-labelledby="features-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading id="features-title" eyebrow="Why us" title="Built for Businesses That Move Fast" />
        <ul className="mt-12 grid grid-cols-1 gap-6 md:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
              <span className="grid size-12 place-items-center rounded-xl bg-secondary text-primary">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-4 text-lg font-bold">{title}</h3>
              <p className="mt-2 text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="demo-title" className="bg-secondary/60 py-20">
        <div className="mx-auto grid grid-cols-1 max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-primary">Live demo</p>
            <h2 id="demo-title" className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
              Watch an AI Assistant Book a Customer in Seconds
            </h2>
            <p className="mt-4 text-lg text-muted-foreground">
              A customer asks a question at any hour. The assistant checks the calendar, answers, books the slot and sends the
              confirmation, with no one on your team lifting a finger.
            </p>
            <ul className="mt-6 space-y-2 text-foreground">
              <li>• Answers instantly, {CLAIMS.support}</li>
              <li>• Books directly into your calendar</li>
              <li>• Sends SMS and email confirmations</li>
            </ul>
          </div>
          <Island name="demo" component={AssistantDemo} props={{}} />
        </div>
      </section>

      <section aria-labelledby="reviews-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading
          id="reviews-title"
          eyebrow="Testimonials"
          title="What Our Customers Say"
          lead={`Trusted by ${CLAIMS.businessesAutomated} businesses.`}
          className="mb-10"
        />
        <Island name="reviews" component={ReviewCarousel} props={{}} />
      </section>

      <section aria-labelledby="cta-title" className="bg-ink py-20 text-center text-white">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Ready to Put AI to Work in Your Business?
          </h2>
          <p className="mt-4 text-lg text-slate-300">
            Start a free trial and get an initial draft of your AI app, no payment required. Or book a demo and see it live.
          </p>
          <CallToActions bookDemoUrl={env.BOOK_DEMO_URL} />
        </div>
      </section>
    </>
  );
}
