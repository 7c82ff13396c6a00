import type { Db } from "../db/client.server";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { recordAudit } from "./audit.server";
import { type MoveResult, moveInCatalogueOrder } from "./catalogue-order.server";

/**
 * An operator moves an add-on to another place in the dashboard marketplace's order; the add-ons in
 * between shift by one. Audited as addon.move (position before and after) in the same transaction; a move to where the
 * add-on already is changes and records nothing. `position` is the form's text, checked against the
 * number of add-ons inside the transaction.
 */
export async function moveAddonAsOperator(
  db: Db,
  operator: { id: string; email: string },
  id: string,
  position: unknown,
): Promise<MoveResult> {
  const result = await db.transaction(async (tx) => {
    const moved = await moveInCatalogueOrder(tx, "addon_library", id, position);
    if (moved.ok && moved.from !== moved.to)
      await recordAudit(tx, {
        operator,
        action: "addon.move",
        subjectType: "addon",
        subjectId: id,
        before: { position: moved.from },
        after: { position: moved.to },
      });
    return moved;
  });
  if (result.ok && result.from !== result.to) catalogueChanged();
  return result;
}
