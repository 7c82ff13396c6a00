import { knownTimeZone } from "~/lib/time-zone";
import type { Db } from "../db/client.server";
import { getSettings } from "./settings.server";

/**
 * The signed-in customer's time zone for a page outside the dashboard layout (which reads it with its
 * settings): the account's, else the browser's cookie; null when neither is known yet.
 */
export async function customerTimeZone(db: Db, userId: string, request: Request): Promise<string | null> {
  const { timeZone } = await getSettings(db, userId);
  return knownTimeZone(timeZone, request.headers.get("Cookie"));
}
