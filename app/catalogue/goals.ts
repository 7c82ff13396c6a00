/** Goals and delivery timelines of the funnel (spec sections 3 and 9). */
type GoalId = "new_app" | "add_ai" | "redesign";

export interface Goal {
  id: GoalId;
  title: string;
  description: string;
  multiplier: number;
  features: string[];
  timeline: string;
  complexity: string;
}

export const GOALS: Goal[] = [
  {
    id: "new_app",
    title: "Build a New AI App",
    description: "Start from scratch with a custom AI application designed around your business.",
    multiplier: 1,
    features: [
      "Custom AI chatbot or assistant",
      "Full design and development",
      "Integrations with your tools",
      "Launch support and training",
    ],
    timeline: "6-8 weeks",
    complexity: "Full Build",
  },
  {
    id: "add_ai",
    title: "Add AI to an Existing App",
    description: "Plug AI automation into the website, CRM or app you already run.",
    multiplier: 0.8,
    features: ["AI layer on your current stack", "API and CRM integration", "Workflow automation", "20% off full-build pricing"],
    timeline: "3-4 weeks",
    complexity: "Integration",
  },
  {
    id: "redesign",
    title: "Redesign & Rebuild with AI",
    description: "Re-imagine your customer experience with an AI-first redesign.",
    multiplier: 1.5,
    features: ["UX research and redesign", "AI-first architecture", "Data migration", "Premium build (+50%)"],
    timeline: "8-12 weeks",
    complexity: "Premium Build",
  },
];

export type TimelineId = "rush" | "1week" | "2weeks" | "standard" | "4weeks" | "6weeks" | "8weeks";

export interface Timeline {
  id: TimelineId;
  label: string;
  multiplier: number;
  description: string;
}

export const TIMELINES: Timeline[] = [
  { id: "rush", label: "Rush (24-48 hours)", multiplier: 1.5, description: "Dedicated team, delivered in 24-48 hours (+50%)" },
  { id: "1week", label: "1 Week", multiplier: 1.2, description: "Expedited delivery within one week (+20%)" },
  { id: "2weeks", label: "2 Weeks", multiplier: 1.1, description: "Fast delivery within two weeks (+10%)" },
  { id: "standard", label: "Standard (3 Weeks)", multiplier: 1, description: "Our standard delivery schedule" },
  { id: "4weeks", label: "4 Weeks", multiplier: 0.95, description: "Flexible schedule (5% off)" },
  { id: "6weeks", label: "6 Weeks", multiplier: 0.9, description: "Relaxed schedule (10% off)" },
  { id: "8weeks", label: "8 Weeks", multiplier: 0.85, description: "Most economical schedule (15% off)" },
];

export const DEFAULT_TIMELINE: TimelineId = "standard";
export const DEFAULT_INDUSTRY = "general";

export function findGoal(id: string | null | undefined): Goal | undefined {
  return GOALS.find((g) => g.id === id);
}

export function findTimeline(id: string | null | undefined): Timeline | undefined {
  return TIMELINES.find((t) => t.id === id);
}

/**
 * Final multiplier = goal multiplier x timeline multiplier, rounded to 4 places so that
 * 0.8 x 1.1 is 0.88 and not 0.8800000000000001. Undefined when either id is unknown.
 */
export function funnelMultiplier(goalId: string | null | undefined, timelineId: string | null | undefined): number | undefined {
  const goal = findGoal(goalId);
  const timeline = findTimeline(timelineId);
  if (!goal || !timeline) return undefined;
  return Math.round(goal.multiplier * timeline.multiplier * 10_000) / 10_000;
}
