import { CircleCheck, DollarSign, GraduationCap, MapPin } from "lucide-react";
import { Link } from "react-router";
import { DISTRIBUTOR_PROGRAM } from "~/catalogue/plans";
import { BUTTON, cx } from "~/components/marketing/Section";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/distributor-success";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Welcome to the AI Distributor Program",
    description:
      "Your distributor payment is confirmed. Here is what happens next: training access, territory assignment and earning.",
    path: "/distributor-success",
    noindex: true,
  });

const STEPS = [
  { icon: CircleCheck, title: "Payment Confirmed", text: "Your setup fee and first month have been processed." },
  {
    icon: GraduationCap,
    title: "Training Access",
    text: `You will receive your training portal login by email within ${DISTRIBUTOR_PROGRAM.trainingLoginHours} hours.`,
  },
  {
    icon: MapPin,
    title: "Territory Assignment",
    text: `Our team will contact you about your exclusive territory within ${DISTRIBUTOR_PROGRAM.territoryContactHours} hours.`,
  },
  {
    icon: DollarSign,
    title: "Start Earning",
    text: "Complete your training, meet your clients and start earning as an AI distributor.",
  },
];

export default function DistributorSuccess() {
  return (
    <div className="bg-muted">
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="text-center">
          <span className="mx-auto grid size-16 place-items-center rounded-full bg-emerald-100 text-emerald-700">
            <CircleCheck className="size-9" aria-hidden />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
            Welcome to the AI Distributor Program!
          </h1>
          <p className="mt-4 text-lg text-muted-foreground">You are all set. Here is what happens next.</p>
        </div>
        <ol className="mt-10 space-y-4">
          {STEPS.map(({ icon: Icon, title, text }, i) => (
            <li key={title} className="flex gap-4 rounded-2xl border bg-card p-5 shadow-sm">
              <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-secondary text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <div>
                <h2 className="font-bold">
                  <span className="text-muted-foreground">{i + 1}. </span>
                  {title}
                </h2>
                <p className="mt-1 text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="mt-10 text-center">
          <Link to="/" className={cx(BUTTON.lg, BUTTON.primary)}>
            Back to Homepage
          </Link>
        </div>
      </div>
    </div>
  );
}
