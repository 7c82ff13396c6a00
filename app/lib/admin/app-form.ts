import { z } from "zod";
import { INDUSTRIES } from "~/catalogue/industries";
import { formatDollars } from "~/catalogue/pricing";
import { slugify } from "~/catalogue/slugs";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import { instantOfWallTime } from "~/lib/time-zone";

/**
 * The console's app form (create and edit): what an operator may set on a catalogue app, checked
 * the same way for both. Prices are whole dollars, as the catalogue stores them.
 */
const MAX_APP_PRICE = 10_000_000;
const MAX_MONTHLY_FINANCING = 1_000_000;
export const MAX_FEATURES = 8;
const MAX_FEATURE_LENGTH = 120;
/** How far ahead a price change may be scheduled. */
const MAX_SCHEDULE_DAYS = 366;
/** An "effective from" this little in the past (the form was open a while) counts as now. */
export const EFFECTIVE_GRACE_MS = 5 * 60_000;

export const text = (label: string, min: number, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .min(min, `The ${label} needs at least ${min} characters.`)
    .max(max, `The ${label} is at most ${max} characters.`)
    .refine(noControlChars, INVALID_CHARACTERS);

const dollars = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .regex(/^\d{1,9}$/, `The ${label} is a whole number of dollars, digits only.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, `The ${label} is at least $1.`)
        .max(max, `The ${label} is at most $${max.toLocaleString("en-US")}.`),
    );

/**
 * An amount typed in dollars, with or without cents ("29", "29.9", "29.99"), as cents from `min` to
 * `max` (cents). Digits and one point only: as many whole-dollar digits as `max` has.
 */
export const dollarsAndCents = (label: string, min: number, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .regex(
      new RegExp(`^\\d{1,${String(Math.floor(max / 100)).length}}(?:\\.\\d{1,2})?$`),
      `The ${label} is in dollars, like 29 or 29.99.`,
    )
    .transform((value) => {
      const [whole = "0", cents = ""] = value.split(".");
      return Number(whole) * 100 + Number(cents.padEnd(2, "0"));
    })
    .pipe(
      z
        .number()
        .min(min, `The ${label} is at least ${formatDollars(min)}.`)
        .max(max, `The ${label} is at most ${formatDollars(max)}.`),
    );

/** A textarea of features, one per line (blank lines dropped). */
export const featuresField = z
  .string({ error: "Enter at least one feature." })
  .refine(noControlChars, INVALID_CHARACTERS)
  .transform((value) =>
    value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().max(MAX_FEATURE_LENGTH, `Each feature is at most ${MAX_FEATURE_LENGTH} characters.`))
      .min(1, "Enter at least one feature.")
      .max(MAX_FEATURES, `At most ${MAX_FEATURES} features, one per line.`),
  );

/** "Effective from": a datetime-local value or empty, checked by parseEffectiveAt. */
export const effectiveAtField = z
  .string()
  .trim()
  .max(40)
  .optional()
  .transform((v) => v ?? "");

export const checkbox = z
  .literal("on")
  .optional()
  .transform((v) => v === "on");

const appFormSchema = z
  .strictObject({
    intent: z.literal("save"),
    name: text("name", 2, 80).refine((name) => slugify(name) !== "", "The name needs at least one letter or digit."),
    description: text("description", 10, 600),
    industry: z.enum(INDUSTRIES, { error: "Choose an industry from the list." }),
    features: featuresField,
    deliveryTime: text("delivery time", 1, 40),
    isPopular: checkbox,
    isActive: checkbox,
    basePrice: dollars("base price", MAX_APP_PRICE),
    expressPrice: dollars("express price", MAX_APP_PRICE),
    standardPrice: dollars("standard price", MAX_APP_PRICE),
    monthlyFinancing: dollars("monthly financing", MAX_MONTHLY_FINANCING),
    effectiveAt: effectiveAtField,
  })
  .superRefine((form, ctx) => {
    if (form.expressPrice < form.basePrice)
      ctx.addIssue({ code: "custom", path: ["expressPrice"], message: "The express price is at least the base price." });
    if (form.standardPrice > form.basePrice)
      ctx.addIssue({ code: "custom", path: ["standardPrice"], message: "The standard price is at most the base price." });
  });

export type AppFormInput = z.output<typeof appFormSchema>;
export type AppFormField = Exclude<keyof AppFormInput, "intent">;
export type FieldErrors = Partial<Record<AppFormField, string>>;

/**
 * When a price change takes effect: null for now (empty, or a time within the grace); otherwise a
 * `YYYY-MM-DDTHH:MM` (a datetime-local field) read as a wall time in `timeZone` (the operator's, as
 * every time in the console), not before now (less EFFECTIVE_GRACE_MS, which counts as now) and at
 * most MAX_SCHEDULE_DAYS ahead.
 */
export function parseEffectiveAt(
  value: string,
  now: Date,
  timeZone = "UTC",
): { ok: true; at: Date | null } | { ok: false; message: string } {
  if (value === "") return { ok: true, at: null };
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  const [year, month, day, hour, minute, second] = (match?.slice(1) ?? []).map((n) => Number(n ?? 0));
  // A date the calendar does not have (30 February) or an hour past 23 is refused, not rolled over.
  const calendar = match ? new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!)) : null;
  if (
    !calendar ||
    calendar.getUTCDate() !== day ||
    calendar.getUTCHours() !== hour ||
    calendar.getUTCMinutes() !== minute ||
    second! > 59
  )
    return { ok: false, message: `Enter a date and time (${timeZone}), or leave it empty for now.` };
  const at = new Date(
    instantOfWallTime({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! }, timeZone).getTime() +
      second! * 1000,
  );
  if (at.getTime() < now.getTime() - EFFECTIVE_GRACE_MS)
    return { ok: false, message: "Choose now or a later time: a price cannot change in the past." };
  if (at.getTime() <= now.getTime()) return { ok: true, at: null };
  if (at.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000)
    return { ok: false, message: `Schedule at most ${MAX_SCHEDULE_DAYS} days ahead.` };
  return { ok: true, at };
}

export type ParsedAppForm =
  /** effectiveAt null: at once (the database's now, so the change is visible to the next read). */
  { ok: true; value: AppFormInput; effectiveAt: Date | null } | { ok: false; errors: FieldErrors; message?: string };

/** The form's fields as the browser sent them, checked; field messages for the form to show. */
export function parseAppForm(entries: Record<string, FormDataEntryValue>, now: Date, timeZone = "UTC"): ParsedAppForm {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== "string") return { ok: false, errors: {}, message: "The form could not be read." };
    strings[key] = value;
  }
  const parsed = appFormSchema.safeParse(strings);
  if (!parsed.success) {
    const errors: FieldErrors = {};
    let other = false;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === "string" && field in appFormSchema.shape && field !== "intent") {
        errors[field as AppFormField] ??= issue.message;
      } else other = true;
    }
    return other && Object.keys(errors).length === 0
      ? { ok: false, errors, message: "Unknown or invalid request." }
      : { ok: false, errors };
  }
  const effective = parseEffectiveAt(parsed.data.effectiveAt, now, timeZone);
  if (!effective.ok) return { ok: false, errors: { effectiveAt: effective.message } };
  return { ok: true, value: parsed.data, effectiveAt: effective.at };
}
