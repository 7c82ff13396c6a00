import { Award, BadgeCheck, Check, GraduationCap, Headset, Infinity as InfinityIcon, MapPin, Plus } from "lucide-react";
import { Link, useActionData } from "react-router";
import { DISTRIBUTOR_PROGRAM, type DistributorFees } from "~/catalogue/plans";
import { formatDollars } from "~/catalogue/pricing";
import { DistributorForm, type DistributorValues } from "~/components/checkout/DistributorForm";
import { checkoutFromForm, formText } from "~/server/billing/form-checkout.server";
import { PageHero } from "~/components/marketing/PageHero";
import { BUTTON, cx, SectionHeading } from "~/components/marketing/Section";
import { faqPageJsonLd, jsonLd } from "~/lib/json-ld";
import { seo, siteUrlOf } from "~/lib/seo";
import { getUser } from "~/server/auth/session.server";
import { ownsDistributorProgram } from "~/server/billing/owned-items.server";
import { db } from "~/server/db/client.server";
import { currentPlanPrices } from "~/server/catalogue/current-plan-prices.server";
import type { Route } from "./+types/distributors";
import { pageCacheHandle } from "~/lib/page-cache";

/** The program's price as the page words it, at the fees its loader read (they change in the console). */
function priceTexts(fees: DistributorFees) {
  return { SETUP: formatDollars(fees.setupFee), MONTHLY: formatDollars(fees.monthlyFee) };
}
const TRIAL = `${DISTRIBUTOR_PROGRAM.trialDays}-day free trial`;
/** Signed out, every call to action signs in first and comes back here (the form needs an account). */
const SIGN_IN_HREF = "/auth?next=/distributors";
const FORM_ID = "join";
const DASHBOARD_HREF = "/dashboard";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const price = loaderData ? priceTexts(loaderData.fees) : null;
  return [
    ...seo(matches, {
      title: "Become an AI Distributor",
      description: `Start your own AI automation business: exclusive territory, 181+ ready-made AI apps, training and support. ${price ? `${price.SETUP} setup + ${price.MONTHLY}/month with a ${TRIAL}.` : `Start with a ${TRIAL}.`}`,
      path: "/distributors",
      image: "partners",
    }),
    // The questions and answers the page's FAQ section shows, word for word.
    ...(price ? [jsonLd(faqPageJsonLd(faqOf(price), `${siteUrlOf(matches)}/distributors`))] : []),
  ];
};

/**
 * Signed in: the form is prefilled from the account (never demo values); a distributor already
 * (a paid membership that has not ended) sees that instead of the form, since the server refuses a
 * second purchase (docs/decisions/0009). `?canceled=true` is where the provider sends a buyer who
 * cancelled the payment.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const [user, plans] = await Promise.all([getUser(request), currentPlanPrices(db())]);
  const member = user ? await ownsDistributorProgram(db(), user.id) : false;
  const fullName =
    [user?.firstName, user?.lastName].filter(Boolean).join(" ").trim() || (user && user.name !== user.email ? user.name : "");
  const prefill: DistributorValues | null = user ? { email: user.email, fullName, businessName: user.companyName ?? "" } : null;
  // The fees it sells at now: the checkout charges what the page shows.
  return { prefill, member, canceled: url.searchParams.get("canceled") === "true", fees: plans.distributor };
}

/** The form without JavaScript: same schema and pricing as POST /api/checkout, then a redirect to the hosted page. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const values = {
    email: formText(form, "email") ?? "",
    fullName: formText(form, "fullName") ?? "",
    businessName: formText(form, "businessName") ?? "",
  };
  const result = await checkoutFromForm(
    request,
    { kind: "distributor", ...values },
    { signInNext: "/distributors", context: values },
  );
  return result;
}

const BENEFITS = [
  {
    icon: InfinityIcon,
    title: "Unlimited Earnings",
    text: "No caps and no ceilings: the more businesses you serve, the more you earn.",
  },
  {
    icon: MapPin,
    title: "Exclusive Territory",
    text: "Your own protected territory, so you are the go-to AI provider where you work.",
  },
  {
    icon: Award,
    title: "Proven Products",
    text: "Sell 181+ ready-made AI apps across 22 industries instead of building from scratch.",
  },
  {
    icon: GraduationCap,
    title: "Full Training",
    text: "Step-by-step training on the products, sales conversations and onboarding clients.",
  },
  {
    icon: Headset,
    title: "Dedicated Support",
    text: "Our team handles delivery and technical support while you focus on clients.",
  },
  {
    icon: BadgeCheck,
    title: "Recurring Opportunities",
    text: "Monthly management plans and add-ons give your clients reasons to keep growing with you.",
  },
];

const PACKAGE = [
  "Access to the full catalogue of 181+ AI apps",
  "Exclusive territory assignment",
  "Distributor training portal",
  "Sales scripts, pitch decks and marketing materials",
  "Product delivery and technical support by our team",
  "Ongoing product updates and new AI apps",
  "Priority partner support",
];

const stepsOf = ({ SETUP, MONTHLY }: ReturnType<typeof priceTexts>) => [
  {
    title: "Start Your Free Trial",
    text: `Join with a ${TRIAL}. The program is ${SETUP} one-time setup plus ${MONTHLY} per month.`,
  },
  {
    title: "Get Trained & Assigned",
    text: `Receive your training portal login by email within ${DISTRIBUTOR_PROGRAM.trainingLoginHours} hours; our team contacts you about your exclusive territory within ${DISTRIBUTOR_PROGRAM.territoryContactHours} hours.`,
  },
  { title: "Start Earning", text: "Offer AI apps to businesses in your territory and grow your client base." },
];

const faqOf = ({ SETUP, MONTHLY }: ReturnType<typeof priceTexts>) => [
  {
    q: "How much can I earn?",
    a: "Earnings are unlimited. There is no cap on how many clients you can serve in your territory or on what you can earn.",
  },
  {
    q: "What does it cost to become a distributor?",
    a: `${SETUP} one-time setup fee plus ${MONTHLY} per month, with a ${TRIAL}.`,
  },
  {
    q: "Do I need technical skills?",
    a: "No. Our team builds, delivers and supports the AI apps. Your training covers the products and how to sell them.",
  },
  {
    q: "How quickly can I get started?",
    a: `You receive your training portal login by email within ${DISTRIBUTOR_PROGRAM.trainingLoginHours} hours, and our team contacts you about your exclusive territory within ${DISTRIBUTOR_PROGRAM.territoryContactHours} hours.`,
  },
  {
    q: "What is an exclusive territory?",
    a: "A region assigned to you alone as a distributor, agreed with our team during onboarding, so you are not competing with other distributors for the same clients.",
  },
];

function JoinButton({
  className,
  onDark = false,
  signedIn,
  member = false,
}: {
  className?: string;
  onDark?: boolean;
  signedIn: boolean;
  member?: boolean;
}) {
  const classes = cx(BUTTON.lg, onDark ? BUTTON.amber : BUTTON.primary, className);
  // A distributor already goes to the dashboard; signed in, the button scrolls to the form on this page.
  if (member)
    return (
      <Link to={DASHBOARD_HREF} className={classes}>
        Go to Dashboard
      </Link>
    );
  return signedIn ? (
    <a href={`#${FORM_ID}`} className={classes}>
      Become a Distributor
    </a>
  ) : (
    <Link to={SIGN_IN_HREF} className={classes}>
      Become a Distributor
    </Link>
  );
}

export default function Distributors({ loaderData }: Route.ComponentProps) {
  const { prefill, member, canceled, fees } = loaderData;
  const price = priceTexts(fees);
  const { SETUP, MONTHLY } = price;
  const signedIn = prefill !== null;
  const failure = useActionData<typeof action>();
  const initial: DistributorValues | null = prefill
    ? {
        email: failure?.context?.email ?? prefill.email,
        fullName: failure?.context?.fullName ?? prefill.fullName,
        businessName: failure?.context?.businessName ?? prefill.businessName,
      }
    : null;
  return (
    <>
      <PageHero
        eyebrow="AI Distributor Program"
        title="Build Your Own AI Automation Business"
        lead="Bring ready-made AI apps to businesses in your exclusive territory, backed by our training, products and support team."
      >
        {canceled && (
          <p
            className="mx-auto mt-6 max-w-xl rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950"
            data-testid="distributor-canceled"
          >
            Your payment was cancelled and you have not been charged. You can join whenever you are ready.
          </p>
        )}
        <div className="mt-8 flex flex-col items-center gap-3">
          <p className="text-2xl font-bold">
            {SETUP} setup <span className="font-normal text-slate-300">+</span> {MONTHLY}/month
          </p>
          <p className="rounded-full bg-amber-400 px-3 py-1 text-sm font-semibold text-ink">{TRIAL}</p>
          <JoinButton onDark className="mt-4" signedIn={signedIn} member={member} />
        </div>
      </PageHero>

      <section aria-labelledby="benefits-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <SectionHeading id="benefits-title" eyebrow="Why become a distributor" title="Everything You Need to Succeed" />
        <ul className="mt-12 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
              <span className="grid size-12 place-items-center rounded-xl bg-secondary text-primary">
                <Icon className="size-6" aria-hidden />
              </span>
              <h3 className="mt-4 text-lg font-bold">{title}</h3>
              <p className="mt-2 text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="package-title" className="bg-muted py-20">
        <div className="mx-auto grid grid-cols-1 max-w-6xl items-start gap-10 px-4 sm:px-6 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-primary">The distributor package</p>
            <h2 id="package-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
              What You Get
            </h2>
            <ul className="mt-8 space-y-3">
              {PACKAGE.map((item) => (
                <li key={item} className="flex gap-3">
                  <Check className="mt-0.5 size-5 shrink-0 text-emerald-700" aria-hidden />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </div>
          <div id={FORM_ID} className="scroll-mt-24 rounded-2xl border bg-card p-6 shadow-lg sm:p-8">
            <h3 className="text-xl font-bold">Distributor Program</h3>
            <p className="mt-4 flex items-baseline gap-2">
              <span className="text-5xl font-extrabold tracking-tight">{SETUP}</span>
              <span className="text-muted-foreground">one-time setup</span>
            </p>
            <p className="mt-2 flex items-baseline gap-2">
              <span className="text-3xl font-bold">+ {MONTHLY}</span>
              <span className="text-muted-foreground">per month</span>
            </p>
            <p className="mt-4 inline-flex rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900">
              {TRIAL}
            </p>
            {member ? (
              <div className="mt-6 border-t pt-6" data-testid="distributor-member">
                <h3 className="flex items-center gap-2 text-lg font-bold">
                  <BadgeCheck className="size-5 shrink-0 text-emerald-700" aria-hidden />
                  You&apos;re already a distributor
                </h3>
                <p className="mt-2 text-muted-foreground">
                  Your membership of the AI Distributor Program is on your account, so there is nothing to buy again.
                </p>
                <Link to={DASHBOARD_HREF} className={cx(BUTTON.lg, BUTTON.primary, "mt-6 w-full")}>
                  Go to Dashboard
                </Link>
              </div>
            ) : initial ? (
              <div className="mt-6 border-t pt-6">
                <DistributorForm initial={initial} fees={fees} serverError={failure} />
              </div>
            ) : (
              <>
                <JoinButton className="mt-8 w-full" signedIn={false} />
                <p className="mt-3 text-center text-sm text-muted-foreground">Sign in or create an account to get started.</p>
              </>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="steps-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <SectionHeading id="steps-title" eyebrow="Getting started" title="Three Steps to Your AI Business" />
        <ol className="mt-12 grid grid-cols-1 gap-6 md:grid-cols-3">
          {stepsOf(price).map((s, i) => (
            <li key={s.title} className="rounded-2xl border bg-card p-6">
              <span className="grid size-10 place-items-center rounded-full bg-primary font-bold text-white" aria-hidden>
                {i + 1}
              </span>
              <h3 className="mt-4 text-lg font-bold">
                <span className="sr-only">Step {i + 1}: </span>
                {s.title}
              </h3>
              <p className="mt-2 text-muted-foreground">{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="faq-title" className="bg-muted py-20">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <SectionHeading id="faq-title" eyebrow="FAQ" title="Frequently Asked Questions" />
          <div className="mt-10 space-y-3">
            {faqOf(price).map((f) => (
              <details key={f.q} className="group rounded-xl border bg-card px-5 open:shadow-sm">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 font-semibold [&::-webkit-details-marker]:hidden">
                  {f.q}
                  <Plus
                    className="size-5 shrink-0 text-primary transition-transform group-open:rotate-45 motion-reduce:transition-none"
                    aria-hidden
                  />
                </summary>
                <p className="pb-5 text-muted-foreground">{f.a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="dist-cta-title" className="bg-ink py-20 text-center text-white">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="dist-cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Ready to Start Your AI Business?
          </h2>
          <p className="mt-4 text-lg text-slate-300">
            {SETUP} setup + {MONTHLY}/month, with a {TRIAL}.
          </p>
          <JoinButton onDark className="mt-8" signedIn={signedIn} member={member} />
        </div>
      </section>
    </>
  );
}
