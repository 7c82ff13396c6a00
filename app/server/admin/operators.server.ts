import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { user, userRoles } from "../db/schema";
import { env } from "../env.server";
import { log } from "../log.server";
import { recordAudit } from "./audit.server";

type AuditOperator = { id: string; email: string };

/**
 * Who may open /admin, and granting or revoking the role from /admin → Operators (and, for the
 * email, `npm run grant-operator`, which applies the same rules in its own SQL). A role row is the
 * only thing written; OPERATOR_EMAILS is configuration, shown but never changed here.
 */
export const OPERATOR_ROLE = "operator";

export interface AdminOperator {
  /** The account's id, or null for an OPERATOR_EMAILS address nobody has signed up with. */
  userId: string | null;
  email: string;
  name: string | null;
  /** A user_roles row, which /admin can revoke. */
  granted: boolean;
  /** Listed in OPERATOR_EMAILS (counts only once the account's email is verified). */
  listed: boolean;
  emailVerified: boolean;
}

/** Granted operators and OPERATOR_EMAILS addresses, by email. */
export async function listOperators(db: Db): Promise<AdminOperator[]> {
  const listed = env().OPERATOR_EMAIL_LIST;
  const granted = await db
    .select({ id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.userId))
    .where(eq(userRoles.role, OPERATOR_ROLE))
    .orderBy(asc(user.email));
  const listedAccounts = listed.length
    ? await db
        .select({ id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified })
        .from(user)
        .where(inArray(sql`lower(${user.email})`, listed))
    : [];
  const byEmail = new Map<string, AdminOperator>();
  for (const u of granted) {
    byEmail.set(u.email.toLowerCase(), {
      userId: u.id,
      email: u.email,
      name: u.name,
      granted: true,
      listed: false,
      emailVerified: u.emailVerified,
    });
  }
  for (const u of listedAccounts) {
    const key = u.email.toLowerCase();
    const known = byEmail.get(key);
    if (known) known.listed = true;
    else
      byEmail.set(key, {
        userId: u.id,
        email: u.email,
        name: u.name,
        granted: false,
        listed: true,
        emailVerified: u.emailVerified,
      });
  }
  for (const email of listed) {
    if (!byEmail.has(email))
      byEmail.set(email, { userId: null, email, name: null, granted: false, listed: true, emailVerified: false });
  }
  return [...byEmail.values()].sort((a, b) => a.email.localeCompare(b.email));
}

export type GrantResult = "granted" | "already" | "no_user" | "unverified";

/**
 * Grants the operator role to the account with this email (any case). An account whose email is
 * not verified is refused: whoever verifies that address later would inherit the role.
 */
export async function grantOperator(db: Db, email: string, by?: AuditOperator): Promise<GrantResult> {
  const [u] = await db
    .select({ id: user.id, email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!u) return "no_user";
  if (!u.emailVerified) return "unverified";
  // From the console, the role and its audit entry commit together.
  const inserted = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const rows = await tx.insert(userRoles).values({ userId: u.id, role: OPERATOR_ROLE }).onConflictDoNothing().returning();
    if (rows.length && by)
      await recordAudit(tx, {
        operator: by,
        action: "operator.grant",
        subjectType: "user",
        subjectId: u.id,
        before: { email: u.email, operator: false },
        after: { email: u.email, operator: true },
      });
    return rows;
  });
  if (inserted.length) log.info("operator role granted", { userId: u.id });
  return inserted.length ? "granted" : "already";
}

export type RevokeResult = "revoked" | "self" | "not_granted";

/**
 * Removes a granted operator role. Nobody revokes their own (an operator cannot lock the last
 * operator out by mistake); an OPERATOR_EMAILS address stays an operator until the list changes.
 */
export async function revokeOperator(db: Db, by: AuditOperator, userId: string): Promise<RevokeResult> {
  if (by.id === userId) return "self";
  const removed = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const rows = await tx
      .delete(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, OPERATOR_ROLE)))
      .returning();
    if (rows.length) {
      const [u] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
      await recordAudit(tx, {
        operator: by,
        action: "operator.revoke",
        subjectType: "user",
        subjectId: userId,
        before: { email: u?.email ?? null, operator: true },
        after: { email: u?.email ?? null, operator: false },
      });
    }
    return rows;
  });
  if (removed.length) log.info("operator role revoked", { userId, by: by.id });
  return removed.length ? "revoked" : "not_granted";
}
