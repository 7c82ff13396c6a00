import { formatDollars } from "~/catalogue/pricing";

/** Cents as dollars with cents when there are some; a negative amount (a refund) as "-$50". */
export const money = (cents: number) => (cents < 0 ? `-${formatDollars(-cents)}` : formatDollars(cents));
