import { SITE_NAME } from "~/lib/seo";

/**
 * The seller's details printed on receipts. The product spec names no legal entity, postal address
 * or support email; the site's own name and its support page (every customer can open a ticket
 * there) stand in until the business supplies them (docs/decisions/0051-local-manage-billing.md).
 */
export const COMPANY = {
  name: SITE_NAME,
  supportPath: "/dashboard/support",
} as const;
