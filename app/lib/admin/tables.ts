import { TICKET_CATEGORIES } from "~/catalogue/dashboard";
import { EMAIL_STATUSES } from "./email-status";
import type { FilterOption, TableSpec } from "./table-params";

/**
 * One spec per console table: what its address may say (search, filters, sort keys). The server
 * half of each table (query and CSV columns) is app/server/admin/tables/<id>.server.ts, and its
 * columns for the page are in app/components/admin/columns.tsx. A new table (payouts, the
 * catalogue) adds one entry in each.
 */
const opts = (...values: string[]): FilterOption[] => values.map((v) => ({ value: v, label: v.replaceAll("_", " ") }));
const yesNo: FilterOption[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

const ORDER_STATUSES = [
  "pending",
  "paid",
  "refunded",
  "canceled",
  "declined",
  "failed",
  "authorized",
  "capturing",
  "capture_failed",
] as const;

export const TABLE_SPECS = {
  customers: {
    id: "customers",
    title: "Customers",
    searchLabel: "Email, name, company or account id",
    sortKeys: ["createdAt", "email", "name"],
    defaultSort: { key: "createdAt", dir: "desc" },
    filters: [{ key: "verified", label: "Email verified", options: yesNo }],
    dateRange: true,
  },
  orders: {
    id: "orders",
    title: "Orders",
    searchLabel: "Email, item, order or provider id",
    sortKeys: ["createdAt", "amount", "email", "status", "itemName"],
    defaultSort: { key: "createdAt", dir: "desc" },
    filters: [
      { key: "status", label: "Status", options: opts(...ORDER_STATUSES) },
      { key: "kind", label: "Kind", options: opts("app", "package", "plan", "addons", "scaling", "distributor") },
      { key: "provider", label: "Provider", options: opts("local", "stripe") },
    ],
    dateRange: true,
  },
  leads: {
    id: "leads",
    title: "Leads",
    searchLabel: "Name, email, phone, company or lead id",
    sortKeys: ["createdAt", "email", "attempts"],
    defaultSort: { key: "createdAt", dir: "desc" },
    filters: [
      { key: "delivery", label: "Delivery", options: opts("pending", "delivered", "failed", "kept") },
      { key: "consent", label: "Marketing consent", options: yesNo },
    ],
    dateRange: true,
  },
  affiliates: {
    id: "affiliates",
    title: "Affiliates",
    searchLabel: "Username, email or business",
    sortKeys: ["createdAt", "username", "clicks", "signups", "pending", "paid"],
    defaultSort: { key: "createdAt", dir: "desc" },
    filters: [{ key: "payouts", label: "Payout account", options: opts("pending", "active") }],
    dateRange: true,
  },
  tickets: {
    id: "tickets",
    title: "Support tickets",
    searchLabel: "Subject, email or ticket number",
    sortKeys: ["createdAt", "updatedAt", "subject"],
    defaultSort: { key: "createdAt", dir: "desc" },
    filters: [
      { key: "status", label: "Status", options: opts("open", "answered", "closed") },
      { key: "category", label: "Category", options: opts(...TICKET_CATEGORIES) },
    ],
    dateRange: true,
  },
  emails: {
    id: "emails",
    title: "Emails",
    searchLabel: "Recipient, subject or kind",
    sortKeys: ["createdAt", "to", "attempts"],
    defaultSort: { key: "createdAt", dir: "desc" },
    filters: [{ key: "status", label: "Status", options: opts(...EMAIL_STATUSES) }],
    dateRange: true,
  },
  audit: {
    id: "audit",
    title: "Audit log",
    searchLabel: "Operator email or subject id",
    sortKeys: ["at"],
    defaultSort: { key: "at", dir: "desc" },
    filters: [
      {
        key: "action",
        label: "Action",
        options: opts(
          "order.refund",
          "operator.grant",
          "operator.revoke",
          "ticket.answer",
          "lead.retry",
          "email.retry",
          "payout-run.create",
          "payout-run.confirm",
          "payout-run.cancel",
          "app.create",
          "app.update",
          "app.price",
          "app.price-cancel",
          "app.move",
          "addon.create",
          "addon.update",
          "addon.price",
          "addon.price-cancel",
          "addon.move",
          "plan.price",
          "plan.price-cancel",
        ),
      },
      {
        key: "subject",
        label: "Subject",
        options: opts("order", "user", "ticket", "lead", "email", "payout-run", "app", "addon", "plan"),
      },
    ],
    dateRange: true,
  },
  apps: {
    id: "apps",
    title: "Apps",
    searchLabel: "Name, slug or industry",
    sortKeys: ["id", "position", "name", "industry", "basePrice", "updatedAt"],
    defaultSort: { key: "id", dir: "asc" },
    filters: [{ key: "published", label: "Published", options: yesNo }],
    dateRange: false,
  },
  addons: {
    id: "addons",
    title: "Add-ons",
    searchLabel: "Name, id or category",
    sortKeys: ["position", "name", "category", "monthlyPrice"],
    defaultSort: { key: "category", dir: "asc" },
    filters: [{ key: "published", label: "On sale", options: yesNo }],
    dateRange: false,
  },
} as const satisfies Record<string, TableSpec>;

export type TableId = keyof typeof TABLE_SPECS;
export const isTableId = (value: string | undefined): value is TableId => !!value && value in TABLE_SPECS;

/** Rows in one CSV export at most: the filtered rows beyond it are left out and the file says so. */
export const CSV_MAX_ROWS = 50_000;
