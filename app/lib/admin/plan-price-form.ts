import { z } from "zod";
import { PLAN_PRICE_KINDS, type PlanAmounts, type PlanPriceKind } from "~/catalogue/plan-prices";
import { dollarsAndCents, effectiveAtField, parseEffectiveAt } from "./app-form";

/**
 * The console's plan price form (docs/decisions/0085-plan-prices-in-database.md): a plan's amounts
 * in dollars (cents allowed), now or from a later time. Every plan has its monthly price; a member
 * plan also the price it is shown against (its discount is the difference), the distributor program
 * its setup fee. Amounts are stored in cents.
 */
export const MIN_PLAN_PRICE_CENTS = 1;
export const MAX_PLAN_PRICE_CENTS = 1_000_000_00;

const money = (label: string) => dollarsAndCents(label, MIN_PLAN_PRICE_CENTS, MAX_PLAN_PRICE_CENTS);

/**
 * One schema for every plan. `kind` is the plan's that the page is for (the route sets it, never the
 * form): it decides which of the second amounts the form must have and which it must not.
 */
export const planPriceFormSchema = z
  .strictObject({
    kind: z.enum(PLAN_PRICE_KINDS),
    intent: z.literal("save"),
    amount: money("monthly price"),
    originalAmount: money("price before the discount").optional(),
    setupFee: money("setup fee").optional(),
    effectiveAt: effectiveAtField,
  })
  // Also run when a field failed already (zod goes on after a non-fatal issue): comparisons are made
  // only between amounts that were read.
  .superRefine((form, ctx) => {
    if (form.kind === "member") {
      if (form.originalAmount === undefined)
        ctx.addIssue({ code: "custom", path: ["originalAmount"], message: "Enter the price before the discount." });
      else if (typeof form.amount === "number" && typeof form.originalAmount === "number" && form.amount > form.originalAmount)
        ctx.addIssue({
          code: "custom",
          path: ["amount"],
          message: "The monthly price is at most the price before the discount.",
        });
    } else if (form.originalAmount !== undefined)
      ctx.addIssue({ code: "custom", path: ["originalAmount"], message: "Only a member plan has a price before a discount." });
    if (form.kind === "distributor") {
      if (form.setupFee === undefined) ctx.addIssue({ code: "custom", path: ["setupFee"], message: "Enter the setup fee." });
    } else if (form.setupFee !== undefined)
      ctx.addIssue({ code: "custom", path: ["setupFee"], message: "Only the distributor program has a setup fee." });
  });

export type PlanPriceFormField = "amount" | "originalAmount" | "setupFee" | "effectiveAt";
export type PlanPriceFieldErrors = Partial<Record<PlanPriceFormField, string>>;
const FIELDS: readonly string[] = ["amount", "originalAmount", "setupFee", "effectiveAt"] satisfies PlanPriceFormField[];

export type ParsedPlanPriceForm =
  /** effectiveAt null: at once (the database's now, so the next read sees it). */
  { ok: true; amounts: PlanAmounts; effectiveAt: Date | null } | { ok: false; errors: PlanPriceFieldErrors; message?: string };

const INVALID = { ok: false as const, errors: {}, message: "Unknown or invalid request." };

/** The form of plan `kind` as the browser sent it, checked; field messages for the form to show. */
export function parsePlanPriceForm(
  entries: Record<string, FormDataEntryValue>,
  kind: PlanPriceKind,
  now: Date,
  timeZone = "UTC",
): ParsedPlanPriceForm {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== "string") return { ok: false, errors: {}, message: "The form could not be read." };
    strings[key] = value;
  }
  if ("kind" in strings) return INVALID;
  const parsed = planPriceFormSchema.safeParse({ ...strings, kind });
  if (!parsed.success) {
    const errors: PlanPriceFieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === "string" && FIELDS.includes(field)) errors[field as PlanPriceFormField] ??= issue.message;
    }
    return Object.keys(errors).length === 0 ? INVALID : { ok: false, errors };
  }
  const effective = parseEffectiveAt(parsed.data.effectiveAt, now, timeZone);
  if (!effective.ok) return { ok: false, errors: { effectiveAt: effective.message } };
  const { amount, originalAmount, setupFee } = parsed.data;
  return {
    ok: true,
    amounts: { amount, originalAmount: originalAmount ?? null, setupFee: setupFee ?? null },
    effectiveAt: effective.at,
  };
}
