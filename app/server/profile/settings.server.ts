import { eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { preparedPerHandle } from "~/server/db/prepared.server";
import { userSettings } from "~/server/db/schema";

export interface UserSettings {
  emailUpdates: boolean;
  productNews: boolean;
  smsAlerts: boolean;
  sidebarCollapsed: boolean;
  /** The account's time zone (IANA), or null while it is not known. */
  timeZone: string | null;
}

/** What the settings page's preferences form saves (the time zone has a form of its own). */
export type Preferences = Omit<UserSettings, "timeZone">;

/** What an account has before it ever saves the settings page. */
export const DEFAULT_SETTINGS: UserSettings = {
  emailUpdates: true,
  productNews: false,
  smsAlerts: false,
  sidebarCollapsed: false,
  timeZone: null,
};

/** HTML checkboxes send "on" when ticked and nothing otherwise. */
const checkbox = z
  .enum(["on", "true", "false"])
  .optional()
  .transform((v) => v === "on" || v === "true");

export const settingsInput = z.object({
  emailUpdates: checkbox,
  productNews: checkbox,
  smsAlerts: checkbox,
  sidebar: z.enum(["expanded", "collapsed"], { error: "Choose expanded or collapsed" }),
});

/** Every page's layout reads them. */
const settingsQuery = preparedPerHandle((db) =>
  db
    .select()
    .from(userSettings)
    .where(eq(userSettings.userId, sql.placeholder("userId")))
    .limit(1),
);

export async function getSettings(db: Db, userId: string): Promise<UserSettings> {
  const [row] = await settingsQuery(db).execute({ userId });
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    emailUpdates: row.emailUpdates,
    productNews: row.productNews,
    smsAlerts: row.smsAlerts,
    sidebarCollapsed: row.sidebarCollapsed,
    timeZone: row.timeZone,
  };
}

export async function saveSettings(db: Db, userId: string, settings: Preferences): Promise<UserSettings> {
  const { emailUpdates, productNews, smsAlerts, sidebarCollapsed } = settings;
  const values = { emailUpdates, productNews, smsAlerts, sidebarCollapsed, updatedAt: new Date() };
  await db
    .insert(userSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userSettings.userId, set: values });
  return getSettings(db, userId);
}

/** The customer's choice on the settings page: a zone Intl knows (the caller checks it). */
export async function saveTimeZone(db: Db, userId: string, timeZone: string): Promise<void> {
  const now = new Date();
  await db
    .insert(userSettings)
    .values({ userId, timeZone, updatedAt: now })
    .onConflictDoUpdate({ target: userSettings.userId, set: { timeZone, updatedAt: now } });
}

/**
 * The browser's zone, captured without asking (at sign-up, or the first dashboard view of an account
 * made before): stored only while the account has none, so it never overrides the customer's choice.
 */
export async function rememberTimeZone(db: Db, userId: string, timeZone: string): Promise<void> {
  await db
    .insert(userSettings)
    .values({ userId, timeZone })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { timeZone: sql`excluded.time_zone` },
      setWhere: isNull(userSettings.timeZone),
    });
}
