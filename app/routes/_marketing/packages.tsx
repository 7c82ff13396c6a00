import { useCallback, useEffect, useRef, useState } from "react";
import { useActionData, useLocation, useNavigate, useNavigation } from "react-router";
import { funnelMultiplier } from "~/catalogue/goals";
import type { QuickPickPlan } from "~/catalogue/plans";
import { discountPercent } from "~/catalogue/trial";
import { multiplierBadge, type PaymentMode, quotePackage } from "~/catalogue/pricing";
import type { MemberTierData } from "~/components/funnel/MemberDiscountNote";
import { OnboardingView } from "~/components/funnel/OnboardingView";
import { goalsHref, industryLabel, parsePackagesQuery } from "~/catalogue/funnel-params";
import type { MemberCheckout } from "~/components/funnel/MemberPlanOffer";
import type { PlanCardData, PlanCheckout } from "~/components/funnel/PlanCard";
import { QuickPickView } from "~/components/funnel/QuickPickView";
import { checkoutFromForm, formText } from "~/server/billing/form-checkout.server";
import { checkoutRefusalText, refusalLine, signInHref } from "~/components/checkout/messages";
import { startCheckout } from "~/lib/checkout-client";
import { jsonLd, packageProductJsonLd } from "~/lib/json-ld";
import { OG_IMAGES, seo, siteUrlOf } from "~/lib/seo";
import { useRootData } from "~/root";
import { getUser } from "~/server/auth/session.server";
import { holdsMemberPlan } from "~/server/billing/member-plans.server";
import { db } from "~/server/db/client.server";
import { currentPlanPrices } from "~/server/catalogue/current-plan-prices.server";
import type { Route } from "./+types/packages";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData?.flow === "onboarding"
    ? seo(matches, {
        title: "Onboarding Packages",
        description:
          "Launch Starter $997, Pro Starter $2,500, Growth Builder $5,000 or Enterprise AI $10,000+, plus managed AI from $500/mo. Start with a 7-day free trial.",
        path: "/packages",
        image: "packages",
      })
    : [
        ...seo(matches, {
          title: "Quick Pick Plan: AI Automation Packages & Pricing",
          description:
            "Starter, Professional and Enterprise AI automation plans, one-time or monthly, each with a 3-day free trial and optional 24-48 hour rush delivery.",
          path: "/packages",
          image: "packages",
        }),
        ...packagesJsonLd(matches, loaderData?.quickPick?.plans),
      ];

/** Each plan on screen as a Product, with the one-time and monthly prices the loader computed for it. */
function packagesJsonLd(matches: Parameters<typeof siteUrlOf>[0], plans: Record<PaymentMode, PlanCardData[]> | undefined) {
  if (!plans) return [];
  const base = siteUrlOf(matches);
  return plans["one-time"].map((plan) => {
    const monthly = plans.monthly.find((p) => p.id === plan.id);
    return jsonLd(
      packageProductJsonLd(
        {
          name: plan.name,
          description: plan.description,
          oneTimeAmount: plan.amount,
          monthlyAmount: monthly?.amount ?? plan.amount,
        },
        `${base}/packages`,
        `${base}${OG_IMAGES.packages.path}`,
      ),
    );
  });
}

/** The cards of `packages` (as they sell now) in `mode`, priced by the rule the checkout prices them by. */
function plansFor(
  packages: readonly QuickPickPlan[],
  mode: PaymentMode,
  funnel: { goal?: string; timeline?: string },
): PlanCardData[] {
  return packages.map((plan) => {
    const standard = quotePackage(plan, { mode, rush: false, ...funnel });
    const amount = standard.amount;
    const was = mode === "monthly" ? plan.monthlyPrice : plan.originalPrice;
    return {
      id: plan.id,
      name: plan.name,
      icon: plan.icon,
      description: plan.description,
      features: plan.features,
      popular: plan.popular,
      amount,
      delivery: standard.timeline,
      rushIncluded: standard.rushIncluded,
      rushAmount: quotePackage(plan, { mode, rush: true, ...funnel }).amount,
      wasAmount: was > amount ? was : null,
    };
  });
}

/**
 * Everything priced here is computed on the server from ids in the query (industry, goal,
 * timeline, mode): a multiplier is never taken from the URL. Unknown ids are ignored.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const q = parsePackagesQuery(url.searchParams);
  // The packages and the member plan offer at the amounts they sell at now: what the checkout charges.
  const [user, prices] = await Promise.all([getUser(request), currentPlanPrices(db())]);
  // Only a plan there is to buy: the free Starter is the dashboard's trial, not an upgrade. At the
  // price it sells at now, and its discount from those amounts.
  const trialPlan = q.tier ? prices.trialPlans.find((p) => p.id === q.tier && p.price > 0) : undefined;
  const tier: MemberTierData | null = trialPlan
    ? {
        id: trialPlan.id,
        name: trialPlan.name,
        price: trialPlan.price,
        originalPrice: trialPlan.originalPrice,
        discountPercent: discountPercent(trialPlan),
        features: trialPlan.features,
      }
    : null;

  if (q.flow === "onboarding") {
    return {
      flow: "onboarding" as const,
      mode: q.mode,
      onboarding: {
        packageId: q.onboardingPackage?.id ?? null,
        planName: q.managementPlan?.name ?? null,
        tierId: q.tier ?? null,
        tier,
      },
      quickPick: null,
      signedIn: user !== null,
      memberOwned: false,
      funnel: null,
    };
  }

  const multiplier = funnelMultiplier(q.goal?.id, q.timeline?.id);
  const funnelIds = { goal: q.goal?.id, timeline: q.timeline?.id };
  const personalised =
    q.industry && q.goal && q.timeline
      ? `Personalised for ${industryLabel(q.industry)}: ${q.goal.title} on the ${q.timeline.label} timeline.`
      : null;
  return {
    flow: "quick-pick" as const,
    mode: q.mode,
    onboarding: null,
    quickPick: {
      personalised,
      badge: multiplierBadge(multiplier),
      backHref: goalsHref({ industry: q.industry ?? "general", goal: q.goal?.id, timeline: q.timeline?.id }),
      fromFunnel: Boolean(q.goal || q.timeline || q.industry),
      plans: {
        "one-time": plansFor(prices.packages, "one-time", funnelIds),
        monthly: plansFor(prices.packages, "monthly", funnelIds),
      },
      tier,
    },
    signedIn: user !== null,
    memberOwned: Boolean(user && trialPlan && (await holdsMemberPlan(db(), user.id, trialPlan.id))),
    /** Ids only (checked against the catalogue); the checkout server computes the multiplier from them. */
    funnel: { goal: q.goal?.id, timeline: q.timeline?.id, industry: q.industry },
  };
}

/**
 * The checkout buttons without JavaScript: a POST of plan id, mode, rush and the funnel ids,
 * priced by the server exactly like POST /api/checkout, then a redirect to the hosted page.
 */
export async function action({ request, url }: Route.ActionArgs) {
  const form = await request.formData();
  // The member plan offer's button (?tier=growth|pro) posts the tier alone.
  const tier = formText(form, "tier");
  if (tier !== undefined)
    return checkoutFromForm(request, { kind: "member", tier }, { signInNext: url.pathname + url.search, context: { tier } });
  const planId = formText(form, "planId") ?? "";
  return checkoutFromForm(
    request,
    {
      kind: "package",
      planId,
      mode: formText(form, "mode"),
      rush: form.get("rush") === "true",
      ...optionalIds({
        goal: formText(form, "goal"),
        timeline: formText(form, "timeline"),
        industry: formText(form, "industry"),
      }),
    },
    { signInNext: url.pathname + url.search, context: { planId } },
  );
}

/** The inline message for a failed package checkout (null: nothing to show). */
function packageCheckoutMessage(failure: { code: string; message?: string } | null | undefined): string | null {
  return failure ? refusalLine(checkoutRefusalText(failure, "packages")) : null;
}

/** Drops absent ids: the request schema is strict and its optional fields must be left out. */
function optionalIds(ids: { goal?: string; timeline?: string; industry?: string }) {
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)) as typeof ids;
}

export default function Packages({ loaderData }: Route.ComponentProps) {
  const { env } = useRootData();
  const navigate = useNavigate();
  const location = useLocation();
  // The switch flips at once (optimistically, from the pending navigation); the URL
  // (?mode=monthly) follows without adding a history entry.
  const pending = useNavigation().location;
  const mode: PaymentMode =
    pending?.pathname === "/packages"
      ? new URLSearchParams(pending.search).get("mode") === "monthly"
        ? "monthly"
        : "one-time"
      : loaderData.mode;

  // ---- Checkout: one at a time; 'Processing...' on the clicked button; a small inline error when
  // the server fails (docs/decisions/0009), and a silent trip to /auth when signed out (spec 8).
  const actionData = useActionData<typeof action>();
  const [processing, setProcessing] = useState<{ planId: string; rush: boolean } | null>(null);
  const [failure, setFailure] = useState<{ planId: string; code: string; message?: string } | null>(null);
  const busy = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const here = location.pathname + location.search;
  const funnel = loaderData.funnel;
  const start = useCallback(
    (planId: string, rush: boolean) => {
      if (busy.current || !funnel) return;
      busy.current = true;
      setProcessing({ planId, rush });
      setFailure(null);
      void startCheckout({ kind: "package", planId, mode, rush, ...optionalIds(funnel) }).then((answer) => {
        busy.current = false;
        if (!mounted.current) return;
        setProcessing(null);
        if ("url" in answer) return;
        if (answer.code === "not_signed_in") {
          void navigate(signInHref(here));
          return;
        }
        console.error("Package checkout failed", answer);
        setFailure({ planId, code: answer.code, message: answer.message });
      });
    },
    [funnel, here, mode, navigate],
  );

  const [memberProcessing, setMemberProcessing] = useState(false);
  const [memberFailure, setMemberFailure] = useState<{ code: string; message?: string } | null>(null);
  const tierId = loaderData.quickPick?.tier?.id ?? null;
  const startMember = useCallback(() => {
    if (busy.current || !tierId) return;
    busy.current = true;
    setMemberProcessing(true);
    setMemberFailure(null);
    void startCheckout({ kind: "member", tier: tierId }).then((answer) => {
      busy.current = false;
      if (!mounted.current) return;
      setMemberProcessing(false);
      if ("url" in answer) return;
      if (answer.code === "not_signed_in") {
        void navigate(signInHref(here));
        return;
      }
      console.error("Member plan checkout failed", answer);
      setMemberFailure({ code: answer.code, message: answer.message });
    });
  }, [here, navigate, tierId]);

  if (loaderData.onboarding) return <OnboardingView data={loaderData.onboarding} />;

  const noJsMemberFailure = actionData?.context?.tier !== undefined ? actionData : null;
  const memberCheckout: MemberCheckout | null = !tierId
    ? null
    : !loaderData.signedIn
      ? { signedIn: false, authHref: signInHref(here) }
      : {
          signedIn: true,
          owned: loaderData.memberOwned,
          processing: memberProcessing,
          error: packageCheckoutMessage(memberFailure ?? (memberProcessing ? null : noJsMemberFailure)),
          onStart: startMember,
        };

  const hrefFor = (next: PaymentMode) => {
    const params = new URLSearchParams(location.search);
    if (next === "monthly") params.set("mode", "monthly");
    else params.delete("mode");
    const search = params.toString();
    return search ? `/packages?${search}` : "/packages";
  };

  return (
    <QuickPickView
      data={loaderData.quickPick}
      mode={mode}
      bookDemoUrl={env.BOOK_DEMO_URL}
      hrefFor={hrefFor}
      memberCheckout={memberCheckout}
      onModeChange={(next) => {
        setFailure(null);
        void navigate(hrefFor(next), { replace: true, preventScrollReset: true });
      }}
      checkoutFor={(plan: PlanCardData): PlanCheckout => {
        if (!loaderData.signedIn) return { signedIn: false, authHref: signInHref(here) };
        const noJsFailure = actionData?.context?.planId === plan.id ? actionData : null;
        return {
          signedIn: true,
          fields: { planId: plan.id, mode, ...optionalIds(funnel ?? {}) } as Record<string, string>,
          processing: processing?.planId === plan.id ? (processing.rush ? "rush" : "standard") : null,
          busy: processing !== null,
          error: packageCheckoutMessage(failure?.planId === plan.id ? failure : processing ? null : noJsFailure),
          onStart: (rush) => start(plan.id, rush),
        };
      }}
    />
  );
}
