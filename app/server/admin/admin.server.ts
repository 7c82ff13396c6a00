import { and, desc, eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { getUser, type SessionUser } from "../auth/session.server";
import { db as currentDb, type Db } from "../db/client.server";
import { orders, paymentDisputes, user, userRoles } from "../db/schema";
import { env } from "../env.server";
import { OPERATOR_ROLE } from "./operators.server";
import { log } from "../log.server";

/**
 * The operator's /admin (docs/decisions/0011-affiliates.md, and the decision on granting operators
 * from /admin). The role is 'operator' in user_roles (granted from /admin → Operators or by
 * `npm run grant-operator -- <email>`) OR a verified email listed in OPERATOR_EMAILS, checked live
 * at every request, so removing an address from the list revokes it at once. No sign-up path
 * writes user_roles.
 */
export { grantOperator } from "./operators.server";
const TWO_FACTOR_SETTINGS = "/dashboard/settings";
const ADMIN_LIST_LIMIT = 100;

export async function isOperator(db: Db, u: Pick<SessionUser, "id" | "email" | "emailVerified">): Promise<boolean> {
  if (u.emailVerified && env().OPERATOR_EMAIL_LIST.includes(u.email.trim().toLowerCase())) return true;
  const [row] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, u.id), eq(userRoles.role, OPERATOR_ROLE)))
    .limit(1);
  return Boolean(row);
}

/**
 * First line of every /admin loader and action, in place of requireUser: the same session lookup,
 * but anyone who is not a signed-in operator (signed out included) gets the site's 404, status and
 * "404 not found" log line alike, for pages and `.data` requests. requireUser's redirect to
 * /auth?next=/admin would tell a visitor the page exists.
 */
export async function requireOperator(request: Request, db: Db = currentDb()): Promise<SessionUser> {
  const u = await getUser(request);
  if (u && (await isOperator(db, u))) {
    // An operator's session must have been opened with a second factor (docs/decisions/0073-two-factor.md).
    // Without one the operator is told what to do on Settings: the page exists for them.
    if (!u.twoFactorEnabled) throw redirect(`${TWO_FACTOR_SETTINGS}?two-factor=required`);
    if (!u.sessionTwoFactorVerified) throw redirect(`${TWO_FACTOR_SETTINGS}?two-factor=sign-in-again`);
    return u;
  }
  const url = new URL(request.url);
  log.warn("404 not found", { path: url.pathname, referer: request.headers.get("referer") ?? undefined });
  throw data(null, { status: 404 });
}

export interface AdminDispute {
  id: string;
  email: string;
  orderId: string | null;
  itemName: string | null;
  amount: number;
  /** Cents the provider charged for the dispute. */
  fee: number;
  reason: string | null;
  status: string;
  providerStatus: string;
  evidenceDueBy: string | null;
  createdAt: string;
}

/** Chargebacks, newest first: open ones need evidence in the provider's dashboard before their deadline. */
export async function listDisputes(db: Db, limit = ADMIN_LIST_LIMIT): Promise<AdminDispute[]> {
  const rows = await db
    .select({ d: paymentDisputes, email: user.email, itemName: orders.itemName })
    .from(paymentDisputes)
    .innerJoin(user, eq(user.id, paymentDisputes.userId))
    .leftJoin(orders, eq(orders.id, paymentDisputes.orderId))
    .orderBy(desc(paymentDisputes.createdAt), desc(paymentDisputes.id))
    .limit(limit);
  return rows.map(({ d, email, itemName }) => ({
    id: d.id,
    email,
    orderId: d.orderId,
    itemName,
    amount: d.amount,
    fee: d.fee,
    reason: d.reason,
    status: d.status,
    providerStatus: d.providerStatus,
    evidenceDueBy: d.evidenceDueBy?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  }));
}
