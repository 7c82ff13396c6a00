import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client.server";

/** Per account: at most this many failed password checks per hour, from any number of IPs. */
export const ACCOUNT_FAILURE_LIMIT = 100;

/**
 * Reserves one password check of an account (named by its email hash): writes a failure row, in
 * the same transaction as the count that allows it, before the password is looked at. The check
 * then either keeps the row (a wrong password: it was a failure) or gives it back
 * (`releaseAccountAttempt`). Counting in one hook and writing in another let every request of a
 * burst see the same count and reach the password check; here the transaction holds a lock per
 * account, so two requests never both see 99. Returns the row's id, or null when the account has
 * ACCOUNT_FAILURE_LIMIT failures in the last hour.
 */
export async function reserveAccountAttempt(db: Db, emailHash: string): Promise<number | null> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`auth-attempt:${emailHash}`}))`);
    const [row] = await queryRows<{ id: number }>(
      tx,
      sql`insert into auth_failures (email_hash)
          select ${emailHash}
          where (select count(*) from auth_failures
                 where email_hash = ${emailHash} and created_at > now() - interval '1 hour') < ${ACCOUNT_FAILURE_LIMIT}
          returning id`,
    );
    return row?.id ?? null;
  });
}

/**
 * Counts a password check past the limit (the owner's trusted device, ADR 0006): written whatever
 * the count, so a wrong password from that device is a failure like any other.
 */
export async function recordAccountAttempt(db: Db, emailHash: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into auth_failures (email_hash) values (${emailHash}) returning id`,
  );
  if (!row) throw new Error("auth_failures insert returned no row");
  return row.id;
}

/** Gives a reservation back: the password was right, so the check was not a failure. */
export async function releaseAccountAttempt(db: Db, id: number): Promise<void> {
  await db.execute(sql`delete from auth_failures where id = ${id}`);
}

/** Keeps the table small: failures older than the window no longer count. */
export async function pruneAccountAttempts(db: Db): Promise<void> {
  await db.execute(sql`delete from auth_failures where created_at < now() - interval '2 hours'`);
}
