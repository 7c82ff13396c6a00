import { sql } from "drizzle-orm";
import { checkPosition, shiftOf } from "~/lib/admin/position";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { queryRows, type Db } from "../db/client.server";
import { recordAudit } from "./audit.server";

/**
 * Moves one catalogue row (an app or an add-on) to another position, keeping the table's positions
 * 1..n unique and without gaps (docs/decisions/0080-catalogue-order-and-add-on-creation.md). Runs in
 * the caller's transaction, which records the audit entry beside it.
 *
 * One advisory lock per table serialises moves with each other and with inserts (the insert
 * trigger of drizzle/0027 takes the same one): two operators moving at once each see the order
 * the other left, so neither can produce a duplicate or a gap.
 */
export type OrderedTable = "apps" | "addon_library";

export type MoveResult =
  | { ok: true; from: number; to: number; of: number }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "invalid"; message: string; of: number };

export async function moveInCatalogueOrder(
  tx: Db,
  table: OrderedTable,
  id: number | string,
  requested: unknown,
): Promise<MoveResult> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`catalogue:order:${table}`}))`);
  const t = sql.identifier(table);
  const [row] = await queryRows<{ position: number }>(tx, sql`select position from ${t} where id = ${id} for update`);
  if (!row) return { ok: false, reason: "not_found" };
  const [total] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from ${t}`);
  const of = Number(total?.n ?? 0);
  const checked = checkPosition(requested, of);
  if (!checked.ok) return { ok: false, reason: "invalid", message: checked.message, of };
  const from = Number(row.position);
  const to = checked.position;
  const shift = shiftOf(from, to);
  if (!shift) return { ok: true, from, to, of };
  // The unique index is checked row by row, so a range cannot be shifted by one in place: the moved
  // row steps aside to 0, the range goes through negative numbers (no row holds one), then back.
  await tx.execute(sql`update ${t} set position = 0 where id = ${id}`);
  await tx.execute(
    sql`update ${t} set position = -(position + ${shift.by}::int) where position between ${shift.first}::int and ${shift.last}::int`,
  );
  await tx.execute(sql`update ${t} set position = -position where position < 0`);
  // updated_at moves the catalogue's version, so every instance drops its cached pages.
  await tx.execute(sql`update ${t} set position = ${to}::int, updated_at = now() where id = ${id}`);
  return { ok: true, from, to, of };
}

/**
 * An operator's move of one app or add-on, in one transaction with its audit entry (`<subject>.move`,
 * position before and after); a move to where the row already is changes and records nothing.
 * Only a real move tells every page cache the catalogue changed.
 */
export async function moveInCatalogueOrderAsOperator(
  db: Db,
  operator: { id: string; email: string },
  subject: { table: OrderedTable; type: "app" | "addon"; id: number | string },
  position: unknown,
): Promise<MoveResult> {
  const result = await db.transaction(async (tx) => {
    const moved = await moveInCatalogueOrder(tx, subject.table, subject.id, position);
    if (moved.ok && moved.from !== moved.to)
      await recordAudit(tx, {
        operator,
        action: `${subject.type}.move`,
        subjectType: subject.type,
        subjectId: String(subject.id),
        before: { position: moved.from },
        after: { position: moved.to },
      });
    return moved;
  });
  if (result.ok && result.from !== result.to) catalogueChanged();
  return result;
}
