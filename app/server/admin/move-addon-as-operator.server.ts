import type { Db } from "../db/client.server";
import { type MoveResult, moveInCatalogueOrderAsOperator } from "./catalogue-order.server";

/**
 * An operator moves an add-on to another place in the dashboard marketplace's order; the add-ons in
 * between shift by one. Audited as addon.move. `position` is the form's text, checked against the
 * number of add-ons inside the transaction.
 */
export function moveAddonAsOperator(
  db: Db,
  operator: { id: string; email: string },
  id: string,
  position: unknown,
): Promise<MoveResult> {
  return moveInCatalogueOrderAsOperator(db, operator, { table: "addon_library", type: "addon", id }, position);
}
