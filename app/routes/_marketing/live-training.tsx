import { CalendarDays, Clock, Star, Users } from "lucide-react";
import { data, Link } from "react-router";
import { CALLBACK_FIELDS, type CallbackField, MARKETING_CONSENT_FIELD } from "~/catalogue/callback";
import { TRAINING_SESSIONS } from "~/catalogue/marketing";
import { type CallbackResult, ConsultationForm } from "~/components/marketing/ConsultationForm";
import { REGISTER_SECTION_ID, RegisterLink } from "~/components/marketing/RegisterLink";
import { PageHero } from "~/components/marketing/PageHero";
import { BUTTON, cx, SectionHeading } from "~/components/marketing/Section";
import { WebinarEmbed } from "~/components/marketing/WebinarEmbed";
import { seo } from "~/lib/seo";
import { handleCallbackRequest, MAX_CALLBACK_BODY_BYTES } from "~/server/leads/http.server";
import { useRootData } from "~/root";
import type { Route } from "./+types/live-training";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Live Training: Free AI Automation Webinars",
    description:
      "Join free live AI automation training every Tuesday (2:00 PM EST) and Thursday (3:00 PM EST), or schedule a personal AI consultation.",
    path: "/live-training",
  });

/**
 * The consultation form posted without JavaScript: stored exactly like POST /api/callback (the lead
 * and its delivery job in one transaction), and the page re-renders with the result. A failed post
 * echoes the submitted values back so the form is kept.
 */
export async function action({ request }: Route.ActionArgs) {
  const copy = request.clone();
  const { status, body } = await handleCallbackRequest(request);
  if (body.ok) return data<CallbackResult>({ ok: true }, { status });
  const values: Partial<Record<CallbackField, string>> = {};
  let consent = false;
  if (status !== 413) {
    const text = await copy.text().catch(() => "");
    if (text.length <= MAX_CALLBACK_BODY_BYTES) {
      const params = new URLSearchParams(text);
      for (const field of CALLBACK_FIELDS) {
        const value = params.get(field);
        if (value) values[field] = value.slice(0, 2000);
      }
      consent = params.get(MARKETING_CONSENT_FIELD) === "on";
    }
  }
  return data<CallbackResult>({ error: body.error, fields: body.fields, values, consent }, { status });
}

const INDUSTRY_FEATURES = [
  { industry: "Healthcare & Life Sciences", features: ["Appointment booking", "Patient intake forms", "Automated reminders"] },
  { industry: "Real Estate & Property", features: ["Lead qualification", "Viewing scheduling", "Listing follow-ups"] },
  { industry: "Restaurants & Food Service", features: ["Reservations", "Menu and order questions", "Review requests"] },
  { industry: "Retail & E-commerce", features: ["Product Q&A chatbot", "Order tracking", "Abandoned-cart recovery"] },
  { industry: "Legal & Professional Services", features: ["Client intake", "Document collection", "Consultation booking"] },
  { industry: "Beauty & Wellness", features: ["Online booking", "No-show reminders", "Rebooking campaigns"] },
];

const lightButton = cx(BUTTON.lg, BUTTON.amber);

export default function LiveTraining({ actionData }: Route.ComponentProps) {
  const { env } = useRootData();
  return (
    <>
      <PageHero
        eyebrow="Free live webinars"
        title="LIVE TRAINING"
        lead="Learn how businesses like yours use AI to answer every customer, book more appointments and save hours every week. Live, free and with Q&A."
      >
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <RegisterLink className={lightButton} />
          <Link to="/apps" className={cx(BUTTON.lg, BUTTON.onDark)}>
            Browse Ready-Made Apps
          </Link>
        </div>
      </PageHero>

      <section aria-labelledby="sessions-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <SectionHeading id="sessions-title" eyebrow="Every week" title="Upcoming Live Sessions" />
        <ul className="mt-10 grid grid-cols-1 gap-6 md:grid-cols-2">
          {TRAINING_SESSIONS.map((s) => (
            <li key={s.title} className="flex flex-col rounded-2xl border bg-card p-6 shadow-sm">
              <article aria-labelledby={`session-${s.date.split(" ")[1]?.toLowerCase()}`} className="flex flex-1 flex-col">
                <div className="flex items-start justify-between gap-4">
                  <h3 id={`session-${s.date.split(" ")[1]?.toLowerCase()}`} className="text-xl font-bold">
                    {s.title}
                  </h3>
                  <p className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2.5 py-1 text-sm font-semibold text-amber-900">
                    <Star className="size-4 fill-current" aria-hidden />
                    <span className="sr-only">Rating </span>
                    {s.rating}
                  </p>
                </div>
                <dl className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm">
                  <div className="flex items-center gap-2">
                    <CalendarDays className="size-4 text-primary" aria-hidden />
                    <dt className="sr-only">When</dt>
                    <dd>
                      {s.date}, {s.time}
                    </dd>
                  </div>
                  <div className="flex items-center gap-2">
                    <Clock className="size-4 text-primary" aria-hidden />
                    <dt className="sr-only">Duration</dt>
                    <dd>{s.duration}</dd>
                  </div>
                  <div className="flex items-center gap-2">
                    <Users className="size-4 text-primary" aria-hidden />
                    <dt className="sr-only">Attendees</dt>
                    <dd>{s.attendees}</dd>
                  </div>
                </dl>
                <h4 className="mt-5 text-sm font-semibold uppercase tracking-wider text-muted-foreground">Topics</h4>
                <ul className="mt-2 flex-1 list-inside list-disc space-y-1 marker:text-primary">
                  {s.topics.map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
                <RegisterLink className={cx(BUTTON.lg, BUTTON.primary, "mt-6 w-full")} />
              </article>
            </li>
          ))}
        </ul>
      </section>

      <section
        id={REGISTER_SECTION_ID}
        tabIndex={-1}
        aria-labelledby="register-title"
        className="scroll-mt-28 bg-muted py-16 focus:outline-none"
      >
        <div className="mx-auto max-w-4xl px-4 sm:px-6">
          <SectionHeading
            id="register-title"
            eyebrow="Free registration"
            title="Reserve Your Seat"
            lead="Pick a session and register below. You will receive the join link by email."
            className="mb-8"
          />
          <WebinarEmbed src={env.WEBINAR_EMBED_URL} origin={env.WEBINAR_ORIGIN} />
        </div>
      </section>

      <section aria-labelledby="industries-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <SectionHeading
          id="industries-title"
          eyebrow="Features by industry"
          title="What You Will See in Action"
          lead="Each session walks through real automations for your kind of business."
        />
        <ul className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {INDUSTRY_FEATURES.map((item) => (
            <li key={item.industry} className="rounded-2xl border bg-card p-5">
              <h3 className="font-bold">{item.industry}</h3>
              <ul className="mt-2 space-y-1 text-sm text-muted-foreground">
                {item.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/apps" className={cx(BUTTON.lg, BUTTON.primary)}>
            Browse Ready-Made Apps
          </Link>
          <Link to="/packages" className={cx(BUTTON.lg, BUTTON.outline)}>
            View Pricing Plans
          </Link>
        </div>
      </section>

      <section id="consultation" aria-labelledby="consultation-title" className="scroll-mt-28 bg-muted py-16">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <div className="rounded-2xl border bg-card p-6 shadow-sm sm:p-10">
            <p className="text-sm font-semibold uppercase tracking-wider text-primary">Personal guidance</p>
            <h2 id="consultation-title" className="mt-2 text-3xl font-bold tracking-tight">
              Schedule AI Consultation
            </h2>
            <p className="mt-3 mb-8 text-muted-foreground">
              Prefer one-on-one help? Tell us about your project and an AI specialist will call you at a time that suits you.
            </p>
            <ConsultationForm result={actionData} />
          </div>
        </div>
      </section>
    </>
  );
}
