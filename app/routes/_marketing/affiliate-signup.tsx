import { BadgeDollarSign, Infinity as InfinityIcon, Link2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { redirect } from "react-router";
import { AffiliateSignUpForm, JoinAffiliateForm } from "~/components/affiliates/AffiliateForms";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import { newUsernameError, normalizeUsername } from "~/catalogue/username";
import { seo } from "~/lib/seo";
import { AFFILIATE_DASHBOARD, getAffiliate, pickDefaultUsername } from "~/server/affiliates/affiliates.server";
import { handleAffiliateAction } from "~/server/affiliates/signup.server";
import { getUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { env } from "~/server/env.server";
import type { Route } from "./+types/affiliate-signup";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Become an Affiliate — 30% Lifetime Commission",
    description: "Join the AI Automation Apps affiliate program and earn 30% commission for life on every customer you refer.",
    path: "/affiliate-signup",
    image: "partners",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const siteUrl = env().PUBLIC_SITE_URL;
  const user = await getUser(request);
  if (!user) return { mode: "signup" as const, siteUrl, join: null };
  if (await getAffiliate(db(), user.id)) throw redirect(AFFILIATE_DASHBOARD);
  // The username chosen at sign-up (passed on when it was taken in the meantime), else a default.
  const asked = normalizeUsername(new URL(request.url).searchParams.get("username") ?? "");
  const suggestion = asked && !newUsernameError(asked) ? asked : await pickDefaultUsername(db(), user.firstName, user.lastName);
  return {
    mode: "join" as const,
    siteUrl,
    join: { email: user.email, suggestion, businessName: user.companyName, taken: Boolean(asked) },
  };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAffiliateAction(db(), request, await getUser(request));
}

const PERKS = [
  { icon: BadgeDollarSign, title: "30% commission", text: "On every payment your referred customers make." },
  { icon: InfinityIcon, title: "For life", text: "A customer you refer stays yours for every future payment." },
  { icon: Link2, title: "One simple link", text: "Share your link; we track clicks, sign-ups and earnings." },
];

export default function AffiliateSignup({ loaderData, actionData }: Route.ComponentProps) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeId = useRef(0);
  useEffect(() => {
    if (!actionData?.toast) return;
    noticeId.current += 1;
    setNotice({ ...actionData.toast, id: noticeId.current });
  }, [actionData]);
  const result = actionData ?? null;

  return (
    <div className="bg-gradient-to-b from-indigo-50 to-white">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2 lg:items-start">
        <section aria-labelledby="affiliate-heading" className="lg:pt-6">
          <p className="text-sm font-semibold uppercase tracking-wide text-primary">Affiliate Program</p>
          <h1 id="affiliate-heading" className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
            Earn 30% lifetime commission on referrals
          </h1>
          <p className="mt-4 text-lg text-muted-foreground">
            Recommend ready-made AI automation apps to the businesses you know. Every time a customer you referred pays, you earn
            30% — for as long as they stay with us.
          </p>
          <ul className="mt-8 space-y-5">
            {PERKS.map((perk) => (
              <li key={perk.title} className="flex gap-4">
                <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
                  <perk.icon className="size-5" aria-hidden />
                </span>
                <span>
                  <span className="block font-semibold">{perk.title}</span>
                  <span className="block text-sm text-muted-foreground">{perk.text}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="affiliate-form-heading" className="rounded-2xl border bg-card p-5 shadow-xl sm:p-7">
          <h2 id="affiliate-form-heading" className="mb-5 text-xl font-bold">
            {loaderData.mode === "join" ? "Become an affiliate" : "Create your affiliate account"}
          </h2>
          {loaderData.mode === "join" && loaderData.join ? (
            <>
              {loaderData.join.taken && !result ? (
                <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  Please confirm your username to finish setting up your affiliate account.
                </p>
              ) : null}
              <JoinAffiliateForm
                result={result}
                siteUrl={loaderData.siteUrl}
                suggestion={loaderData.join.suggestion}
                businessName={loaderData.join.businessName}
                email={loaderData.join.email}
              />
            </>
          ) : (
            <AffiliateSignUpForm result={result} siteUrl={loaderData.siteUrl} />
          )}
        </section>
      </div>
      <LazyToaster notice={notice} />
    </div>
  );
}
