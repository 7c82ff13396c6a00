import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { userSettings } from "~/server/db/schema";

export interface UserSettings {
  emailUpdates: boolean;
  productNews: boolean;
  smsAlerts: boolean;
  sidebarCollapsed: boolean;
}

/** What an account has before it ever saves the settings page. */
export const DEFAULT_SETTINGS: UserSettings = {
  emailUpdates: true,
  productNews: false,
  smsAlerts: false,
  sidebarCollapsed: false,
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

export async function getSettings(db: Db, userId: string): Promise<UserSettings> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    emailUpdates: row.emailUpdates,
    productNews: row.productNews,
    smsAlerts: row.smsAlerts,
    sidebarCollapsed: row.sidebarCollapsed,
  };
}

export async function saveSettings(db: Db, userId: string, settings: UserSettings): Promise<UserSettings> {
  const values = { ...settings, updatedAt: new Date() };
  await db
    .insert(userSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userSettings.userId, set: values });
  return getSettings(db, userId);
}
