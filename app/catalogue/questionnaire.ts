import { z } from "zod";
import { MANAGEMENT_PLANS, ONBOARDING_PACKAGES, type OnboardingPackageId } from "./plans";

/**
 * The /questionnaire (spec: "screen not shown", designed in docs/decisions/0005-questionnaire.md):
 * six short questions whose answers pick one of the 4 onboarding packages and one of the 4
 * management plans. Everything here is pure so the server renders the same answer the tests check.
 */

interface Choice<Id extends string> {
  id: Id;
  label: string;
}

export const BUSINESS_SIZES = [
  { id: "solo", label: "Just me" },
  { id: "small", label: "2-10 people" },
  { id: "medium", label: "11-50 people" },
  { id: "large", label: "51+ people" },
] as const satisfies readonly Choice<string>[];

export const AUTOMATIONS = [
  { id: "leads", label: "Lead capture & qualification" },
  { id: "booking", label: "Booking & appointments" },
  { id: "support", label: "Customer support" },
  { id: "sales", label: "Sales follow-up" },
  { id: "marketing", label: "Marketing & content" },
  { id: "operations", label: "Internal operations" },
] as const satisfies readonly Choice<string>[];

export const CHANNELS = [
  { id: "website", label: "Website chat" },
  { id: "sms", label: "SMS" },
  { id: "email", label: "Email" },
  { id: "social", label: "Social media DMs" },
  { id: "phone", label: "Phone & voice" },
] as const satisfies readonly Choice<string>[];

/** How many assistants (bots) the business wants; `bots` is the upper end used to size the plan. */
export const ASSISTANT_COUNTS = [
  { id: "1", label: "1", bots: 1 },
  { id: "2-3", label: "2-3", bots: 3 },
  { id: "4-5", label: "4-5", bots: 5 },
  { id: "6-10", label: "6-10", bots: 10 },
  { id: "10+", label: "More than 10", bots: 11 },
] as const satisfies readonly (Choice<string> & { bots: number })[];

/** One-time setup budget; the bands line up with the package prices ($997, $2,500, $5,000, $10,000+). */
export const BUDGETS = [
  { id: "under-1k", label: "Under $1,000" },
  { id: "1k-3k", label: "$1,000 - $3,000" },
  { id: "3k-10k", label: "$3,000 - $10,000" },
  { id: "10k-plus", label: "$10,000+" },
] as const satisfies readonly Choice<string>[];

export const LAUNCH_TIMELINES = [
  { id: "asap", label: "As soon as possible" },
  { id: "month", label: "Within a month" },
  { id: "quarter", label: "In 1-3 months" },
  { id: "exploring", label: "Just exploring" },
] as const satisfies readonly Choice<string>[];

type IdOf<T extends readonly { id: string }[]> = T[number]["id"];
type BusinessSize = IdOf<typeof BUSINESS_SIZES>;
type Automation = IdOf<typeof AUTOMATIONS>;
type Channel = IdOf<typeof CHANNELS>;
type AssistantCount = IdOf<typeof ASSISTANT_COUNTS>;
type Budget = IdOf<typeof BUDGETS>;
type LaunchTimeline = IdOf<typeof LAUNCH_TIMELINES>;

export interface QuestionnaireAnswers {
  size?: BusinessSize;
  automate: Automation[];
  channels: Channel[];
  assistants?: AssistantCount;
  budget?: Budget;
  timeline?: LaunchTimeline;
}

const ids = <T extends readonly { id: string }[]>(choices: T) => choices.map((c) => c.id) as [IdOf<T>, ...IdOf<T>[]];

/** A single choice: anything that is not one of the ids is ignored (undefined), never an error. */
const one = <T extends readonly { id: string }[]>(choices: T) => z.enum(ids(choices)).optional().catch(undefined);

/** A multiple choice: unknown ids are dropped, duplicates removed, order follows the catalogue. */
const many = <T extends readonly { id: string }[]>(choices: T) =>
  z
    .array(z.string())
    .catch([])
    .transform((values) => ids(choices).filter((id) => values.includes(id)));

const questionnaireSchema = z.object({
  size: one(BUSINESS_SIZES),
  automate: many(AUTOMATIONS),
  channels: many(CHANNELS),
  assistants: one(ASSISTANT_COUNTS),
  budget: one(BUDGETS),
  timeline: one(LAUNCH_TIMELINES),
});

/** Reads the answers from a query string (the form is a GET form). Unknown keys and values are ignored. */
export function parseAnswers(params: URLSearchParams): QuestionnaireAnswers {
  return questionnaireSchema.parse({
    size: params.get("size") ?? undefined,
    automate: params.getAll("automate"),
    channels: params.getAll("channels"),
    assistants: params.get("assistants") ?? undefined,
    budget: params.get("budget") ?? undefined,
    timeline: params.get("timeline") ?? undefined,
  });
}

export function countAnswered(a: QuestionnaireAnswers): number {
  return (
    [a.size, a.assistants, a.budget, a.timeline].filter(Boolean).length +
    (a.automate.length ? 1 : 0) +
    (a.channels.length ? 1 : 0)
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Package ladder, smallest first. Index = "tier". */
const LADDER: OnboardingPackageId[] = ["starter", "pro", "growth", "enterprise"];
const PLAN_FOR_TIER = ["Essential", "Growth", "Scale", "Agency+"] as const;
type ManagementPlanName = (typeof PLAN_FOR_TIER)[number];

const ASSISTANT_TIER: Record<AssistantCount, number> = { "1": 0, "2-3": 1, "4-5": 2, "6-10": 3, "10+": 3 };
const SIZE_TIER: Record<BusinessSize, number> = { solo: 0, small: 0, medium: 1, large: 2 };
const BUDGET_CAP: Record<Budget, number> = { "under-1k": 0, "1k-3k": 1, "3k-10k": 2, "10k-plus": 3 };

/** Breadth of the project: 2+ jobs or channels need Pro, 4+ need Growth. */
function scopeTier(count: number): number {
  if (count >= 4) return 2;
  if (count >= 2) return 1;
  return 0;
}

/** Management plan by bots to look after: Essential 1, Growth 3, Scale 5, Agency+ 10+ (spec section 9). */
function planForBots(bots: number): ManagementPlanName {
  if (bots <= 1) return "Essential";
  if (bots <= 3) return "Growth";
  if (bots <= 5) return "Scale";
  return "Agency+";
}

export interface Recommendation {
  packageId: OnboardingPackageId;
  planName: ManagementPlanName;
  /** Plain-language reasons, in the order the rules applied. */
  reasons: string[];
}

/**
 * The recommendation rule:
 * 1. need = the largest tier asked for by the number of assistants, the breadth (jobs to automate,
 *    channels) and the business size;
 * 2. a budget caps the package at the one it can pay for ("Just exploring" without a budget caps at
 *    Pro Starter: start small, grow later); a budget never pushes the package above the need;
 * 3. the management plan is sized by the number of assistants, or follows the package when that
 *    question is unanswered.
 */
export function recommend(a: QuestionnaireAnswers): Recommendation {
  const reasons: string[] = [];
  const assistants = ASSISTANT_COUNTS.find((c) => c.id === a.assistants);

  let need = 0;
  if (assistants) {
    need = Math.max(need, ASSISTANT_TIER[assistants.id]);
    reasons.push(
      assistants.id === "1" ? "You want one AI assistant." : `You want ${assistants.label.toLowerCase()} AI assistants.`,
    );
  }
  const breadth = Math.max(a.automate.length, a.channels.length);
  if (breadth >= 2) {
    need = Math.max(need, scopeTier(breadth));
    const parts: string[] = [];
    if (a.automate.length) parts.push(`${plural(a.automate.length, "task")} to automate`);
    if (a.channels.length) parts.push(plural(a.channels.length, "channel"));
    reasons.push(`You listed ${parts.join(" across ")}.`);
  }
  if (a.size) {
    need = Math.max(need, SIZE_TIER[a.size]);
    if (SIZE_TIER[a.size] > 0)
      reasons.push(`A team of ${BUSINESS_SIZES.find((s) => s.id === a.size)?.label} needs room to grow.`);
  }

  let tier = need;
  if (a.budget) {
    const cap = BUDGET_CAP[a.budget];
    if (cap < need) {
      tier = cap;
      reasons.push("We kept within your budget: you can upgrade at any time.");
    } else {
      reasons.push("It fits within your budget.");
    }
  } else if (a.timeline === "exploring" && need > 1) {
    tier = 1;
    reasons.push("You are exploring, so we suggest starting smaller and growing later.");
  }
  if (a.timeline === "asap")
    reasons.push("You want to launch fast: mention it on your onboarding call and we will prioritise your build.");

  const packageId = LADDER[tier] ?? "starter";
  const planName = assistants ? planForBots(assistants.bots) : (PLAN_FOR_TIER[tier] ?? "Essential");
  return { packageId, planName, reasons };
}

/** The onboarding presentation of /packages with the recommendation preselected. */
export function recommendationHref(r: Pick<Recommendation, "packageId" | "planName">): string {
  return `/packages?${new URLSearchParams({ flow: "onboarding", package: r.packageId, plan: r.planName }).toString()}`;
}

export function findOnboardingPackage(id: string | null | undefined) {
  return ONBOARDING_PACKAGES.find((p) => p.id === id);
}

export function findManagementPlan(name: string | null | undefined) {
  return MANAGEMENT_PLANS.find((p) => p.name === name);
}
