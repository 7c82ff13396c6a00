import type { Db } from "../db/client.server";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { recordAudit } from "./audit.server";
import { type MoveResult, moveInCatalogueOrder } from "./catalogue-order.server";

/**
 * An operator moves an app to another place in /apps' default order; the apps in between shift by
 * one. Audited as app.move (position before and after) in the same transaction; a move to where the
 * app already is changes and records nothing. `position` is the form's text, checked against the
 * number of apps inside the transaction.
 */
export async function moveAppAsOperator(
  db: Db,
  operator: { id: string; email: string },
  id: number,
  position: unknown,
): Promise<MoveResult> {
  const result = await db.transaction(async (tx) => {
    const moved = await moveInCatalogueOrder(tx, "apps", id, position);
    if (moved.ok && moved.from !== moved.to)
      await recordAudit(tx, {
        operator,
        action: "app.move",
        subjectType: "app",
        subjectId: String(id),
        before: { position: moved.from },
        after: { position: moved.to },
      });
    return moved;
  });
  if (result.ok && result.from !== result.to) catalogueChanged();
  return result;
}
