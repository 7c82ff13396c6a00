import { SITE_NAME } from "~/lib/seo";

/**
 * The seller's details printed on receipts. The product spec names no legal entity, postal address
 * or support email; the site's own name and its support page (every customer can open a ticket
 * there) stand in until the business supplies them (docs/decisions/0051-local-manage-billing.md).
 */
export const COMPANY = {
  name: SITE_NAME,
  /** The registered legal entity, named by the privacy policy and the terms: the business fills it in. */
  legalName: `${SITE_NAME} [legal entity name]`,
  /** Its registered address (placeholder until the business supplies it). */
  address: "[registered office address]",
  supportPath: "/dashboard/support",
} as const;
