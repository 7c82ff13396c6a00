import { z } from "zod";
import { BILLING_PLANS, QUICK_PICK_PLANS, SCALING_TIERS, TRIAL_PLANS } from "~/catalogue/plans";
import { APP_PRICING_TABS } from "~/catalogue/pricing";
import { INVALID_CHARACTERS, noControlChars } from "./text";

/**
 * The body of POST /api/checkout: *what* is bought, never an amount (DESIGN.md section 4). Every
 * variant is strict, so a request carrying a price, amount, discount or multiplier is refused with
 * 400 instead of being trusted or silently dropped. The browser imports only the types.
 */
const id = z.string().trim().min(1).max(64).refine(noControlChars, INVALID_CHARACTERS);

export const checkoutRequestSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("app"),
    appId: z.number().int().positive().max(2_147_483_647),
    tab: z.enum(APP_PRICING_TABS),
  }),
  z.strictObject({
    kind: z.literal("package"),
    planId: z.enum(QUICK_PICK_PLANS.map((p) => p.id) as [string, ...string[]]),
    mode: z.enum(["one-time", "monthly"]),
    rush: z.boolean(),
    /** Funnel ids; the multiplier is computed from them on the server. Unknown ids count as absent. */
    goal: id.optional(),
    timeline: id.optional(),
    industry: z.string().trim().max(80).refine(noControlChars, INVALID_CHARACTERS).optional(),
  }),
  z.strictObject({
    kind: z.literal("plan"),
    planType: z.enum(BILLING_PLANS.map((p) => p.type) as [string, ...string[]]),
  }),
  z.strictObject({
    /** A member plan of the trial chooser (Growth, Pro); the free Starter is a trial, not a checkout. */
    kind: z.literal("member"),
    tier: z.enum(TRIAL_PLANS.filter((p) => p.price > 0).map((p) => p.id) as [string, ...string[]]),
  }),
  z.strictObject({
    kind: z.literal("addons"),
    addonIds: z.array(id).min(1).max(20),
  }),
  z.strictObject({
    kind: z.literal("scaling"),
    tierIndex: z
      .number()
      .int()
      .min(0)
      .max(SCALING_TIERS.length - 1),
  }),
  z.strictObject({
    kind: z.literal("distributor"),
    email: z.email("Enter a valid email address").max(254),
    fullName: z.string().trim().min(1, "Enter your full name").max(120).refine(noControlChars, INVALID_CHARACTERS),
    businessName: z.string().trim().min(1, "Enter your business name").max(160).refine(noControlChars, INVALID_CHARACTERS),
  }),
]);

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
