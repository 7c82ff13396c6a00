import type { Db } from "../db/client.server";
import { type MoveResult, moveInCatalogueOrderAsOperator } from "./catalogue-order.server";

/**
 * An operator moves an app to another place in /apps' default order; the apps in between shift by
 * one. Audited as app.move. `position` is the form's text, checked against the number of apps
 * inside the transaction.
 */
export function moveAppAsOperator(
  db: Db,
  operator: { id: string; email: string },
  id: number,
  position: unknown,
): Promise<MoveResult> {
  return moveInCatalogueOrderAsOperator(db, operator, { table: "apps", type: "app", id }, position);
}
