import { z } from "zod";
import { INDUSTRY_CATEGORIES } from "~/catalogue/categories";
import { DEFAULT_INDUSTRY, findGoal, findTimeline, type Goal, type Timeline } from "~/catalogue/goals";
import type { PaymentMode } from "~/catalogue/pricing";
import { findManagementPlan, findOnboardingPackage } from "~/catalogue/questionnaire";
import type { ManagementPlan, OnboardingPackage, TrialPlanId } from "~/catalogue/plans";

/**
 * The funnel (industries -> goals -> packages) keeps its state in the query string so reloads,
 * shared links and pages rendered without JavaScript all agree. These helpers read and write it.
 */

const INDUSTRY_NAMES = new Map<string, string>(
  [DEFAULT_INDUSTRY, ...INDUSTRY_CATEGORIES.flatMap((c) => [c.category, ...c.industries])].map((n) => [n.toLowerCase(), n]),
);

/** A short free-text field: anything else (missing, too long, an array) reads as undefined. */
const text = z.string().trim().min(1).max(100).optional().catch(undefined);

/**
 * The industry as the catalogue spells it (a category, one of its industries, or 'general'), or
 * undefined. Free text from a link is never echoed onto the page: only catalogue names are.
 */
export function canonicalIndustry(value: string | null | undefined): string | undefined {
  const parsed = text.parse(value ?? undefined);
  return parsed ? INDUSTRY_NAMES.get(parsed.toLowerCase()) : undefined;
}

/** How an industry reads in a sentence ('general' is the default, not a name). */
export function industryLabel(industry: string): string {
  return industry === DEFAULT_INDUSTRY ? "General Business" : industry;
}

export function goalsHref(p: { industry: string; goal?: string; timeline?: string }): string {
  const params = new URLSearchParams({ industry: p.industry });
  if (p.goal) params.set("goal", p.goal);
  if (p.timeline) params.set("timeline", p.timeline);
  return `/goals?${params.toString()}`;
}

/** The packages page for a chosen goal: ids only, the multiplier is computed by the server. */
export function packagesHref(p: { industry: string; goal: string; timeline: string }): string {
  return `/packages?${new URLSearchParams({ industry: p.industry, goal: p.goal, timeline: p.timeline }).toString()}`;
}

export interface GoalsQuery {
  industry: string;
  goal?: Goal;
  /** Undefined when missing or unknown (the page then shows the default, standard). */
  timeline?: Timeline;
  /** The submit button's name: present when the no-JS form asked to continue to /packages. */
  select: boolean;
}

export function parseGoalsQuery(params: URLSearchParams): GoalsQuery {
  return {
    industry: canonicalIndustry(params.get("industry")) ?? DEFAULT_INDUSTRY,
    goal: findGoal(text.parse(params.get("goal") ?? undefined)),
    timeline: findTimeline(text.parse(params.get("timeline") ?? undefined)),
    select: params.has("select"),
  };
}

const MEMBER_TIERS = ["growth", "pro"] as const satisfies readonly TrialPlanId[];
type MemberTier = (typeof MEMBER_TIERS)[number];

export interface PackagesQuery {
  flow: "quick-pick" | "onboarding";
  industry?: string;
  goal?: Goal;
  timeline?: Timeline;
  mode: PaymentMode;
  /** Onboarding presentation: the selected one-time package and management plan. */
  onboardingPackage?: OnboardingPackage;
  managementPlan?: ManagementPlan;
  /** The dashboard trial overlay's upgrade (selectedTier with the member discount). */
  tier?: MemberTier;
}

const packagesSchema = z.object({
  flow: z.enum(["onboarding"]).optional().catch(undefined),
  industry: text,
  goal: text,
  timeline: text,
  mode: z.enum(["monthly", "one-time"]).optional().catch(undefined),
  package: text,
  plan: text,
  tier: z.enum(MEMBER_TIERS).optional().catch(undefined),
});

export function parsePackagesQuery(params: URLSearchParams): PackagesQuery {
  const q = packagesSchema.parse(Object.fromEntries(params));
  return {
    flow: q.flow ?? "quick-pick",
    industry: canonicalIndustry(q.industry),
    goal: findGoal(q.goal),
    timeline: findTimeline(q.timeline),
    mode: q.mode === "monthly" ? "monthly" : "one-time",
    onboardingPackage: findOnboardingPackage(q.package),
    managementPlan: findManagementPlan(q.plan),
    tier: q.tier,
  };
}
