import { planPayoutRun } from "~/catalogue/payouts";
import type { Db } from "../db/client.server";
import { env } from "../env.server";
import { payableEntries, payablePerAffiliate } from "./payout-entries.server";

/** What a run created now would do, per affiliate with a payable balance (nothing is locked). */
export async function previewPayoutRun(db: Db, now = new Date()) {
  const minimum = env().AFFILIATE_PAYOUT_MINIMUM_CENTS;
  const plan = planPayoutRun(
    payablePerAffiliate(await payableEntries(db, now)).map(({ affiliateUserId, username, payoutEmail, payable }) => ({
      affiliateUserId,
      username,
      payoutEmail,
      payable,
    })),
    minimum,
  );
  return { minimum, holdDays: env().AFFILIATE_HOLD_DAYS, lines: plan };
}
