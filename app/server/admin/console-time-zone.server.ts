import type { SessionUser } from "../auth/session.server";
import { db as currentDb, type Db } from "../db/client.server";
import { customerTimeZone } from "../profile/time-zone.server";

/**
 * The zone a console page shows times and reads date ranges in: the operator's account's (stored at
 * sign-up from the browser's cookie, changed on Settings), else the browser's cookie; null when
 * neither is known (times then read UTC on the server's render and the browser's zone after it).
 */
export function consoleTimeZone(request: Request, operator: Pick<SessionUser, "id">, db: Db = currentDb()) {
  return customerTimeZone(db, operator.id, request);
}
