/**
 * The local provider bills nothing after the first payment, so the next charge date of one of its
 * subscriptions is worked out the way a monthly billing cycle runs: from the cycle's anchor (the end
 * of the first period) on the same day of each following month, the month's last day when it is
 * shorter (Jan 31 -> Feb 28 -> Mar 31). The first such date after `now`; the anchor itself while it
 * is still ahead (a trial or first period that has not ended).
 */
export function nextMonthlyDate(anchor: Date, now: Date): Date {
  if (anchor.getTime() > now.getTime()) return anchor;
  const wholeMonths = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  for (let months = Math.max(1, wholeMonths); ; months++) {
    const next = addMonths(anchor, months);
    if (next.getTime() > now.getTime()) return next;
  }
}

/** `date` plus `months` calendar months (UTC), on the month's last day when the day does not exist in it. */
export function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const result = new Date(date.getTime());
  result.setUTCFullYear(y, m, Math.min(date.getUTCDate(), lastDay));
  return result;
}
