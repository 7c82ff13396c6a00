/**
 * Every plan and price list of spec section 9. Amounts in cents unless the name says otherwise.
 *
 * The amounts of the billing plans, scaling tiers, paid member plans, the distributor program and the
 * quick-pick packages are their list prices: what they sell at until an operator changes them in the
 * console, after which the server reads them from plan_prices (app/catalogue/plan-prices.ts,
 * docs/decisions/0085-plan-prices-in-database.md, 0089-quick-pick-package-prices-in-database.md). Code
 * that quotes or shows one of those prices takes the current amounts as an argument instead of reading
 * them here.
 */

export type QuickPickPlanId = "starter" | "professional" | "enterprise";

export interface QuickPickPlan {
  id: QuickPickPlanId;
  name: string;
  icon: "Zap" | "Star" | "Crown";
  /** One-time price in cents (the list price). */
  price: number;
  /** Monthly price in cents (the list price). */
  monthlyPrice: number;
  /** Struck-through "was" price of the one-time price, in cents (the list price). */
  originalPrice: number;
  description: string;
  features: string[];
  popular: boolean;
  rushAvailable: true;
}

export const QUICK_PICK_PLANS: QuickPickPlan[] = [
  {
    id: "starter",
    name: "Starter",
    icon: "Zap",
    price: 350000,
    monthlyPrice: 200000,
    originalPrice: 500000,
    description: "One AI app to automate your most time-consuming task.",
    features: ["1 AI app", "500 emails/month", "250 SMS/month", "5 standard integrations", "Up to 1,000 interactions/month"],
    popular: false,
    rushAvailable: true,
  },
  {
    id: "professional",
    name: "Professional",
    icon: "Star",
    price: 500000,
    monthlyPrice: 300000,
    originalPrice: 750000,
    description: "A connected suite of AI apps for a growing team.",
    features: [
      "3 AI apps",
      "2,500 emails/month",
      "1,000 SMS/month",
      "15 premium integrations",
      "Up to 10,000 interactions/month",
      "Custom branding",
      "Multi-language support",
      "A/B testing",
    ],
    popular: true,
    rushAvailable: true,
  },
  {
    id: "enterprise",
    name: "Enterprise",
    icon: "Crown",
    price: 2500000,
    monthlyPrice: 500000,
    originalPrice: 3500000,
    description: "Unlimited AI automation with a dedicated team behind it.",
    features: [
      "Unlimited AI apps",
      "Unlimited email",
      "Unlimited SMS",
      "Unlimited interactions",
      "Dedicated account manager",
      "White-label solution",
      "24/7 phone support",
      "API access",
    ],
    popular: false,
    rushAvailable: true,
  },
];

export type OnboardingPackageId = "starter" | "pro" | "growth" | "enterprise";

export interface OnboardingPackage {
  id: OnboardingPackageId;
  name: string;
  priceText: string;
  description: string;
  features: string[];
  popular: boolean;
}

export const ONBOARDING_PACKAGES: OnboardingPackage[] = [
  {
    id: "starter",
    name: "Launch Starter",
    priceText: "$997",
    description: "Get your first AI assistant live fast.",
    features: ["1 AI chatbot", "Website integration", "Basic lead capture", "7-day setup"],
    popular: false,
  },
  {
    id: "pro",
    name: "Pro Starter",
    priceText: "$2,500",
    description: "The complete starter kit for a growing business.",
    features: ["2 AI chatbots", "CRM integration", "Booking automation", "SMS and email follow-ups"],
    popular: true,
  },
  {
    id: "growth",
    name: "Growth Builder",
    priceText: "$5,000",
    description: "Automate sales, support and marketing together.",
    features: ["4 AI assistants", "Multi-channel (web, SMS, social)", "Custom workflows", "Analytics dashboard"],
    popular: false,
  },
  {
    id: "enterprise",
    name: "Enterprise AI",
    priceText: "$10,000+",
    description: "A custom AI system across your whole operation.",
    features: ["Unlimited assistants", "Custom AI training", "Dedicated engineer", "SLA and priority support"],
    popular: false,
  },
];

export interface ManagementPlan {
  name: string;
  monthlyPriceText: string;
  features: string[];
}

export const MANAGEMENT_PLANS: ManagementPlan[] = [
  { name: "Essential", monthlyPriceText: "$500/mo", features: ["1 bot managed", "Monthly optimisation", "Email support"] },
  { name: "Growth", monthlyPriceText: "$1,000/mo", features: ["3 bots managed", "Bi-weekly optimisation", "Priority support"] },
  { name: "Scale", monthlyPriceText: "$2,000/mo", features: ["5 bots managed", "Weekly optimisation", "Dedicated manager"] },
  { name: "Agency+", monthlyPriceText: "$5,000/mo", features: ["10+ bots managed", "White-label reporting", "24/7 support"] },
];

export type TrialPlanId = "starter" | "growth" | "pro";

export interface TrialPlan {
  id: TrialPlanId;
  name: string;
  /** Monthly price in cents after the member discount (list price of a paid plan; 0 for the free plan). */
  price: number;
  /** Monthly price in cents before the discount (list price of a paid plan; 0 for the free plan). */
  originalPrice: number;
  popular: boolean;
  features: string[];
}

export const TRIAL_PLANS: TrialPlan[] = [
  {
    id: "starter",
    name: "Starter",
    price: 0,
    originalPrice: 0,
    popular: true,
    features: ["7-day free trial", "1 AI app preview", "Dashboard access", "Email support"],
  },
  {
    id: "growth",
    name: "Growth",
    price: 350000,
    originalPrice: 500000,
    popular: false,
    features: ["3 AI apps", "CRM integration", "Priority support"],
  },
  {
    id: "pro",
    name: "Pro",
    price: 700000,
    originalPrice: 1000000,
    popular: false,
    features: ["Unlimited AI apps", "Dedicated manager", "24/7 support"],
  },
];

type BillingPlanType = "basic" | "pro" | "enterprise";

export interface BillingPlan {
  type: BillingPlanType;
  name: string;
  /** Monthly price in cents (the list price). */
  monthlyPrice: number;
  /** Contacts included; null = unlimited. */
  contacts: number | null;
  popular: boolean;
}

export const BILLING_PLANS: BillingPlan[] = [
  { type: "basic", name: "Basic", monthlyPrice: 9900, contacts: 10_000, popular: false },
  { type: "pro", name: "Pro", monthlyPrice: 49900, contacts: 100_000, popular: true },
  { type: "enterprise", name: "Enterprise", monthlyPrice: 99900, contacts: null, popular: false },
];

export interface ScalingTier {
  contacts: number;
  sms: number;
  emails: number;
  /** Monthly price in cents (the list price). */
  monthlyPrice: number;
  popular: boolean;
}

export const SCALING_TIERS: ScalingTier[] = [
  { contacts: 10_000, sms: 1_000, emails: 10_000, monthlyPrice: 19900, popular: false },
  { contacts: 50_000, sms: 5_000, emails: 50_000, monthlyPrice: 49900, popular: false },
  { contacts: 100_000, sms: 10_000, emails: 100_000, monthlyPrice: 99900, popular: true },
  { contacts: 500_000, sms: 25_000, emails: 500_000, monthlyPrice: 249900, popular: false },
  { contacts: 1_000_000, sms: 50_000, emails: 1_000_000, monthlyPrice: 499900, popular: false },
];

export const ADDON_CATEGORIES = [
  "Marketing",
  "Analytics",
  "Sales",
  "AI",
  "Support",
  "Infrastructure",
  "Automation",
  "Content",
  "Operations",
  "Finance",
  "Mobile",
] as const;
export type AddonCategory = (typeof ADDON_CATEGORIES)[number];

/** What the distributor program costs, in cents. */
export interface DistributorFees {
  /** One-time, paid at checkout. */
  setupFee: number;
  /** A month, from the end of the trial. */
  monthlyFee: number;
}

/** The fees are the list prices. */
export const DISTRIBUTOR_PROGRAM = {
  setupFee: 99700,
  monthlyFee: 19900,
  trialDays: 7,
  trainingLoginHours: 24,
  territoryContactHours: 48,
} as const;

export const AFFILIATE_COMMISSION_RATE = 0.3;

/** Trial lengths as the spec gives them: both readings are kept (spec section 1). */
export const TRIAL_DAYS = { checkout: 3, dashboard: 7 } as const;

/**
 * Whether the account's active plan already includes exactly `contacts` contacts a month (`reachLimit`
 * of its active subscription; null = none or unlimited). A scaling tier with those contacts adds
 * nothing the customer can count on and takes nothing away, so it is neither an upgrade nor a
 * downgrade: the scaling page shows it as included and the checkout refuses to sell it. One rule for
 * both, so the page never offers what the server refuses.
 */
export function planIncludesContacts(current: { active: boolean; reachLimit: number | null }, contacts: number): boolean {
  return current.active && current.reachLimit !== null && current.reachLimit === contacts;
}

/** Why a checkout of a tier the plan already includes is refused (409). */
export function contactsAlreadyIncludedMessage(contacts: number): string {
  return `Your current plan already includes ${contacts.toLocaleString("en-US")} contacts per month. Choose a tier with more or fewer contacts.`;
}
