import { z } from "zod";
import { amountsForKind, KIND_AMOUNTS, PLAN_PRICE_KINDS, type PlanAmounts, type PlanPriceKind } from "~/catalogue/plan-prices";
import { dollarsAndCents, effectiveAtField, parseEffectiveAt } from "./app-form";

/**
 * The console's plan price form (docs/decisions/0085-plan-prices-in-database.md): a plan's amounts
 * in dollars (cents allowed), now or from a later time. Every plan has its monthly price; a member
 * plan also the price it is shown against (its discount is the difference), the distributor program
 * its setup fee. A quick-pick package (0089-quick-pick-package-prices-in-database.md) has a one-time
 * price, the price it is shown against and a monthly price, in whole dollars. Amounts are stored in
 * cents.
 */
const MIN_PLAN_PRICE_CENTS = 1;
const MAX_PLAN_PRICE_CENTS = 1_000_000_00;

const money = (label: string) => dollarsAndCents(label, MIN_PLAN_PRICE_CENTS, MAX_PLAN_PRICE_CENTS);

/** What the form calls `amount` and `originalAmount` for a plan of each kind (its field messages say it). */
const LABELS: Record<PlanPriceKind, { amount: string; originalAmount: string }> = {
  plan: { amount: "monthly price", originalAmount: "price before the discount" },
  scaling: { amount: "monthly price", originalAmount: "price before the discount" },
  member: { amount: "monthly price", originalAmount: "price before the discount" },
  distributor: { amount: "monthly price", originalAmount: "price before the discount" },
  package: { amount: "one-time price", originalAmount: "price before the saving" },
};

type OtherAmount = (typeof KIND_AMOUNTS)[PlanPriceKind][number];

/**
 * The amounts besides `amount`, each with its message when the plan's kind has it and it is missing,
 * and when the kind has none (KIND_AMOUNTS says which kinds have which).
 */
const OTHER_AMOUNTS: readonly {
  field: OtherAmount;
  missing: (label: { originalAmount: string }) => string;
  notAllowed: string;
}[] = [
  {
    field: "originalAmount",
    missing: (label) => `Enter the ${label.originalAmount}.`,
    notAllowed: "Only a member plan or a package has a price before a discount.",
  },
  { field: "setupFee", missing: () => "Enter the setup fee.", notAllowed: "Only the distributor program has a setup fee." },
  {
    field: "monthlyAmount",
    missing: () => "Enter the monthly price.",
    notAllowed: "Only a package has a monthly price beside its one-time price.",
  },
];

/**
 * The schema of one kind's form: the same fields and rules for every plan, with the field messages
 * naming the amounts as that kind's form labels them. `kind` is the plan's that the page is for (the
 * route sets it, never the form): it decides which of the other amounts the form must have and
 * which it must not (KIND_AMOUNTS).
 */
function schemaOf(kind: PlanPriceKind) {
  const label = LABELS[kind];
  return (
    z
      .strictObject({
        kind: z.literal(kind),
        intent: z.literal("save"),
        amount: money(label.amount),
        originalAmount: money(label.originalAmount).optional(),
        setupFee: money("setup fee").optional(),
        monthlyAmount: money("monthly price").optional(),
        effectiveAt: effectiveAtField,
      })
      // Also run when a field failed already (zod goes on after a non-fatal issue): comparisons are made
      // only between amounts that were read.
      .superRefine((form, ctx) => {
        const has = KIND_AMOUNTS[kind];
        const issue = (field: OtherAmount | "amount", message: string) =>
          ctx.addIssue({ code: "custom", path: [field], message });
        for (const { field, missing, notAllowed } of OTHER_AMOUNTS) {
          if (!has.includes(field)) {
            if (form[field] !== undefined) issue(field, notAllowed);
          } else if (form[field] === undefined) issue(field, missing(label));
        }
        const { amount, originalAmount } = form;
        if (
          has.includes("originalAmount") &&
          typeof amount === "number" &&
          typeof originalAmount === "number" &&
          amount > originalAmount
        )
          issue("amount", `The ${label.amount} is at most the ${label.originalAmount}.`);
        // The packages page and its checkout quote a package in whole dollars (quotePackage rounds
        // after the funnel's multipliers): a price with cents would be shown and charged rounded,
        // so not as the operator typed it.
        if (kind === "package")
          for (const [field, name] of [
            ["amount", label.amount],
            ["originalAmount", label.originalAmount],
            ["monthlyAmount", "monthly price"],
          ] as const) {
            const cents = form[field];
            if (typeof cents === "number" && cents % 100 !== 0)
              issue(field, `The ${name} is in whole dollars, like 3500: the packages page rounds to dollars.`);
          }
      })
  );
}

const SCHEMAS = Object.fromEntries(PLAN_PRICE_KINDS.map((kind) => [kind, schemaOf(kind)])) as {
  [K in PlanPriceKind]: ReturnType<typeof schemaOf>;
};

/** The form schema of plans of `kind`. */
const planPriceFormSchema = (kind: PlanPriceKind) => SCHEMAS[kind];

export const PLAN_PRICE_FORM_FIELDS = ["amount", "originalAmount", "setupFee", "monthlyAmount", "effectiveAt"] as const;
export type PlanPriceFormField = (typeof PLAN_PRICE_FORM_FIELDS)[number];
export type PlanPriceFieldErrors = Partial<Record<PlanPriceFormField, string>>;
const FIELDS: readonly string[] = PLAN_PRICE_FORM_FIELDS;

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
  const parsed = planPriceFormSchema(kind).safeParse({ ...strings, kind });
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
  const { amount, originalAmount, setupFee, monthlyAmount } = parsed.data;
  return {
    ok: true,
    amounts: amountsForKind(kind, {
      amount,
      originalAmount: originalAmount ?? null,
      setupFee: setupFee ?? null,
      monthlyAmount: monthlyAmount ?? null,
    }),
    effectiveAt: effective.at,
  };
}
