import { data } from "react-router";
import { z } from "zod";
import { dollarsToCents, REFUND_REASONS, type RefundResult } from "~/lib/refund-codes";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import type { SessionUser } from "../auth/session.server";
import { stripeClient } from "../billing/stripe/client.server";
import { db } from "../db/client.server";
import { takeRequestAttempt } from "../http/request-limit.server";
import { RATE_LIMITS } from "../limits/rate-limits.server";
import { refundOrderAsOperator } from "./refund-order-as-operator.server";

const refundSchema = z.strictObject({
  intent: z.literal("refund-order"),
  orderId: z.string().min(1).max(100).refine(noControlChars, INVALID_CHARACTERS),
  /** Cents, as the form converts the dollars typed. */
  amount: z.coerce.number().int().min(1).max(100_000_000),
  reason: z.enum(REFUND_REASONS),
  note: z.string().trim().max(500).refine(noControlChars, INVALID_CHARACTERS).default(""),
  key: z.uuid(),
  confirm: z.literal("yes"),
});

const answer = (result: RefundResult, status = 200) => data(result, { status });

/**
 * The console's refund form (with JavaScript, or the plain form whose dollars and confirmation box
 * arrive as typed), checked, rate limited per operator and address, then refunded with its audit entry.
 */
export async function answerRefundRequest(request: Request, me: SessionUser, form: Record<string, FormDataEntryValue>) {
  let entries = form;
  if (entries.amount === undefined && typeof entries.dollars === "string") {
    if (entries.confirm !== "yes")
      return answer({ intent: "refund-order", ok: false, orderId: String(entries.orderId ?? ""), code: "confirm_required" }, 400);
    const { dollars, ...rest } = entries;
    entries = { ...rest, amount: String(dollarsToCents(dollars) ?? "") };
  }
  const parsed = refundSchema.safeParse(entries);
  if (!parsed.success)
    return answer(
      { intent: "refund-order", ok: false, orderId: String(entries.orderId ?? "").slice(0, 100), code: "invalid_input" },
      400,
    );
  const input = parsed.data;
  const base = { intent: input.intent, orderId: input.orderId } as const;
  if (input.reason === "other" && !input.note) return answer({ ...base, ok: false, code: "note_required" }, 400);
  const allowed = await takeRequestAttempt(request, RATE_LIMITS.adminRefund, me.id);
  if (!allowed.allowed)
    return answer({ ...base, ok: false, code: "rate_limited", retryAfterSeconds: allowed.retryAfterSeconds }, 429);
  const result = await refundOrderAsOperator(
    db(),
    { id: me.id, email: me.email },
    { orderId: input.orderId, amount: input.amount, reason: input.reason, note: input.note, key: input.key },
    stripeClient,
  );
  if (result.ok) return answer({ ...base, ...result });
  const status = { not_found: 404, not_refundable: 409, amount_too_high: 409, partial: 409, provider_failed: 502 }[result.code];
  return answer({ ...base, ...result }, status);
}
