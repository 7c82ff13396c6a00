const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });
const dateFmt = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** Signed cents as US dollars with cents ("$37.04", "-$30.00"). */
export const formatMoney = (cents: number) => money.format(cents / 100);
/** An ISO timestamp as a UTC calendar date (same on server and browser). */
export const formatDay = (iso: string) => dateFmt.format(new Date(iso));
export { formatCount } from "~/catalogue/pricing";
