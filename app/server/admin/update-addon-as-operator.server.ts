import { eq, sql } from "drizzle-orm";
import type { AddonFormInput } from "~/lib/admin/addon-form";
import type { Db } from "../db/client.server";
import { addonLibrary, addonPrices } from "../db/schema";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { currentAddonPrice } from "../catalogue/current-price.server";
import { recordAudit } from "./audit.server";

export type UpdateAddonResult =
  { ok: true; details: boolean; price: "none" | "now" | "scheduled" } | { ok: false; reason: "not_found" };

const DETAIL_FIELDS = ["name", "description", "category", "features", "isActive"] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An operator's edit of an add-on, in one transaction with its audit entries, like an app's
 * (update-app-as-operator.server.ts): changed details (addon.update) and a price change
 * (addon.price) effective now or from `effectiveAt`. Owners keep the price they bought at (their
 * order's line; entitlements.server.ts).
 */
export async function updateAddonAsOperator(
  db: Db,
  operator: { id: string; email: string },
  id: string,
  form: AddonFormInput,
  effectiveAt: Date | null,
): Promise<UpdateAddonResult> {
  const result = await db.transaction(async (tx): Promise<UpdateAddonResult> => {
    const [addon] = await tx.select().from(addonLibrary).where(eq(addonLibrary.id, id)).for("update");
    if (!addon) return { ok: false, reason: "not_found" };
    const price = currentAddonPrice(tx);
    const [now] = await tx
      .select({ monthlyPrice: price.monthlyPrice })
      .from(addonLibrary)
      .leftJoinLateral(price.subquery, sql`true`)
      .where(eq(addonLibrary.id, id));

    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const field of DETAIL_FIELDS) {
      if (!same(addon[field], form[field])) {
        before[field] = addon[field];
        after[field] = form[field];
      }
    }
    const details = Object.keys(after).length > 0;
    const priceChange = effectiveAt ? "scheduled" : now?.monthlyPrice !== form.monthlyPrice ? "now" : "none";

    if (details) {
      await tx
        .update(addonLibrary)
        .set({ ...(after as Partial<typeof addonLibrary.$inferInsert>), updatedAt: sql`now()` })
        .where(eq(addonLibrary.id, id));
      await recordAudit(tx, { operator, action: "addon.update", subjectType: "addon", subjectId: id, before, after });
    }
    if (priceChange !== "none") {
      const [inserted] = await tx
        .insert(addonPrices)
        .values({ addonId: id, monthlyPrice: form.monthlyPrice, effectiveAt: effectiveAt ?? sql`now()`, createdBy: operator.id })
        .returning({ id: addonPrices.id, effectiveAt: addonPrices.effectiveAt });
      if (!details)
        await tx
          .update(addonLibrary)
          .set({ updatedAt: sql`now()` })
          .where(eq(addonLibrary.id, id));
      await recordAudit(tx, {
        operator,
        action: "addon.price",
        subjectType: "addon",
        subjectId: id,
        before: { monthlyPrice: now?.monthlyPrice ?? null },
        after: { monthlyPrice: form.monthlyPrice, effectiveAt: inserted!.effectiveAt.toISOString(), priceId: inserted!.id },
      });
    }
    return { ok: true, details, price: priceChange };
  });
  if (result.ok && (result.details || result.price !== "none")) catalogueChanged();
  return result;
}
