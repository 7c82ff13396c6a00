import { z } from "zod";
import { ADDON_CATEGORIES } from "~/catalogue/plans";
import { slugify } from "~/catalogue/slugs";
import { checkbox, dollarsAndCents, effectiveAtField, featuresField, parseEffectiveAt, text } from "./app-form";

/**
 * The console's add-on form: its listing, whether it is on sale, and its monthly price in dollars
 * (cents allowed), now or from a later time. Prices are stored in cents.
 */
const MAX_ADDON_PRICE_CENTS = 100_000_00;

const monthlyPrice = dollarsAndCents("monthly price", 100, MAX_ADDON_PRICE_CENTS);

const addonFormSchema = z.strictObject({
  intent: z.literal("save"),
  name: text("name", 2, 80),
  description: text("description", 10, 600),
  category: z.enum(ADDON_CATEGORIES, { error: "Choose a category from the list." }),
  features: featuresField,
  isActive: checkbox,
  monthlyPrice,
  effectiveAt: effectiveAtField,
});

export type AddonFormInput = z.output<typeof addonFormSchema>;
export type AddonFormField = Exclude<keyof AddonFormInput, "intent">;
export type AddonFieldErrors = Partial<Record<AddonFormField, string>>;

export type ParsedAddonForm =
  { ok: true; value: AddonFormInput; effectiveAt: Date | null } | { ok: false; errors: AddonFieldErrors; message?: string };

/** The form as the browser sent it, checked; field messages for the form to show. */
export function parseAddonForm(entries: Record<string, FormDataEntryValue>, now: Date, timeZone = "UTC"): ParsedAddonForm {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== "string") return { ok: false, errors: {}, message: "The form could not be read." };
    strings[key] = value;
  }
  const parsed = addonFormSchema.safeParse(strings);
  if (!parsed.success) {
    const errors: AddonFieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === "string" && field in addonFormSchema.shape && field !== "intent")
        errors[field as AddonFormField] ??= issue.message;
    }
    return Object.keys(errors).length === 0
      ? { ok: false, errors, message: "Unknown or invalid request." }
      : { ok: false, errors };
  }
  const effective = parseEffectiveAt(parsed.data.effectiveAt, now, timeZone);
  if (!effective.ok) return { ok: false, errors: { effectiveAt: effective.message } };
  return { ok: true, value: parsed.data, effectiveAt: effective.at };
}

/**
 * The console's new add-on form: the same fields without "effective from" (a new add-on's price is
 * its list price from its first day). Its name must give an id (app/catalogue/slugs.ts), so it needs
 * a letter or digit.
 */
const newAddonFormSchema = addonFormSchema.omit({ effectiveAt: true }).extend({
  name: text("name", 2, 80).refine((name) => slugify(name) !== "", "The name needs at least one letter or digit."),
});

export type NewAddonFormInput = z.output<typeof newAddonFormSchema>;

export type ParsedNewAddonForm =
  { ok: true; value: NewAddonFormInput } | { ok: false; errors: AddonFieldErrors; message?: string };

/** The new add-on form as the browser sent it, checked; field messages for the form to show. */
export function parseNewAddonForm(entries: Record<string, FormDataEntryValue>): ParsedNewAddonForm {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== "string") return { ok: false, errors: {}, message: "The form could not be read." };
    strings[key] = value;
  }
  const parsed = newAddonFormSchema.safeParse(strings);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: AddonFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === "string" && field in newAddonFormSchema.shape && field !== "intent")
      errors[field as AddonFormField] ??= issue.message;
  }
  return Object.keys(errors).length === 0 ? { ok: false, errors, message: "Unknown or invalid request." } : { ok: false, errors };
}
