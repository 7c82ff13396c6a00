import { z } from "zod";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import {
  BUDGETS,
  CALLBACK_FIELDS,
  CALLBACK_REQUIRED_MESSAGE,
  type CallbackField,
  PREFERRED_TIMES,
  PROJECT_TYPES,
  MARKETING_CONSENT_FIELD,
  REQUIRED_CALLBACK_FIELDS,
  TIMEFRAMES,
} from "~/catalogue/callback";

const MESSAGE_MAX_LENGTH = 2000;
export const HONEYPOT_FIELD = "website";

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`).refine(noControlChars, INVALID_CHARACTERS);
const optionalText = (max: number) => text(max).optional().default("");
const choice = (options: readonly string[]) =>
  z
    .string()
    .trim()
    .refine((v) => v === "" || options.includes(v), "Please choose one of the listed options")
    .optional()
    .default("");

/** The callback request body (spec sections 3 and 5). Strict: an unknown field is refused. */
const callbackRequestSchema = z.strictObject({
  firstName: text(100),
  lastName: optionalText(100),
  email: z.string().trim().max(254, "At most 254 characters"),
  phone: text(40),
  company: optionalText(200),
  projectType: choice(PROJECT_TYPES),
  budget: choice(BUDGETS),
  timeframe: choice(TIMEFRAMES),
  message: optionalText(MESSAGE_MAX_LENGTH),
  preferredTime: choice(PREFERRED_TIMES),
  /**
   * The marketing consent checkbox: a form sends "on" when it is ticked and nothing when not; JSON
   * may say true or false. Anything else is refused, so a typo never reads as consent.
   */
  [MARKETING_CONSENT_FIELD]: z
    .union([z.boolean(), z.enum(["on", "true", "false", ""])], "Tick the box or leave it empty")
    .optional()
    .transform((v) => v === true || v === "on" || v === "true"),
  /** Honeypot: hidden from people, filled by bots. */
  [HONEYPOT_FIELD]: z.string().max(1000).optional().default(""),
});

type CallbackRequest = z.infer<typeof callbackRequestSchema>;

export type FieldErrors = Partial<Record<CallbackField, string>>;

export type ValidationResult = { ok: true; value: CallbackRequest } | { ok: false; error: string; fields: FieldErrors };

const emailSchema = z.email();

export const PHONE_MESSAGE = "Please enter a valid phone number";
/** Digits, letters (vanity numbers, 'ext.', 'x'), spaces and + ( ) . - / #; nothing else, no control characters. */
const PHONE_CHARACTERS = /^[0-9A-Za-z +().\-/#]+$/;

/**
 * A phone number as people write it (docs/decisions/0010): at most 40 characters of the characters
 * above, starting with a digit, '+' or '('; at least 7 digits or letters, of which at least 3 are
 * digits. So '555-123-4567 ext. 12', '(555)1234567 x2', '1-800-FLOWERS' and '+44 20 7946 0958' pass,
 * and 'call me', '12345' or '555 0100; DROP' do not. The number is kept as typed.
 */
export function isPhoneNumber(value: string): boolean {
  const phone = value.trim();
  if (phone.length === 0 || phone.length > 40 || !PHONE_CHARACTERS.test(phone) || !/^[0-9+(]/.test(phone)) return false;
  const digits = phone.replace(/[^0-9]/g, "").length;
  const alphanumerics = phone.replace(/[^0-9A-Za-z]/g, "").length;
  return digits >= 3 && alphanumerics >= 7;
}

/** Validates a parsed body: required fields first ('Please fill in required fields'), then formats. */
export function validateCallbackRequest(body: unknown): ValidationResult {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, error: "Invalid request body", fields: {} };
  const parsed = callbackRequestSchema.safeParse(body);
  if (!parsed.success) {
    const unknown = parsed.error.issues.find((i) => i.code === "unrecognized_keys");
    if (unknown && unknown.code === "unrecognized_keys")
      return { ok: false, error: `Unexpected field: ${unknown.keys.join(", ")}`, fields: {} };
    const fields: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key === "string" && !(key in fields))
        fields[key as CallbackField] = issue.code === "invalid_type" ? "Required" : issue.message;
    }
    const raw = body as Record<string, unknown>;
    for (const f of REQUIRED_CALLBACK_FIELDS)
      if (typeof raw[f] === "string" && !(raw[f] as string).trim()) fields[f] = "Required";
    const missingRequired = REQUIRED_CALLBACK_FIELDS.filter((f) => fields[f] === "Required");
    const ordered: FieldErrors = Object.fromEntries(CALLBACK_FIELDS.filter((f) => fields[f]).map((f) => [f, fields[f]]));
    // The consent box is not a text field of the form: its problem is named in the message.
    const first = Object.values(ordered)[0] ?? parsed.error.issues.find((i) => i.path[0] === MARKETING_CONSENT_FIELD)?.message;
    return {
      ok: false,
      error: missingRequired.length ? CALLBACK_REQUIRED_MESSAGE : first ? `Please check the form: ${first}` : "Invalid request",
      fields: ordered,
    };
  }
  const value = parsed.data;
  const missing = REQUIRED_CALLBACK_FIELDS.filter((f) => !value[f]);
  if (missing.length)
    return { ok: false, error: CALLBACK_REQUIRED_MESSAGE, fields: Object.fromEntries(missing.map((f) => [f, "Required"])) };
  if (!emailSchema.safeParse(value.email).success)
    return { ok: false, error: "Please enter a valid email address", fields: { email: "Please enter a valid email address" } };
  if (!isPhoneNumber(value.phone)) return { ok: false, error: PHONE_MESSAGE, fields: { phone: PHONE_MESSAGE } };
  return { ok: true, value: { ...value, email: value.email.toLowerCase() } };
}
