import { eq, sql } from "drizzle-orm";
import type { AppFormInput } from "~/lib/admin/app-form";
import type { Db } from "../db/client.server";
import { appPrices, apps } from "../db/schema";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { currentPrice } from "../catalogue/current-price.server";
import { recordAudit } from "./audit.server";

export type UpdateAppResult =
  { ok: true; details: boolean; price: "none" | "now" | "scheduled" } | { ok: false; reason: "not_found" };

const DETAIL_FIELDS = ["name", "description", "industry", "features", "deliveryTime", "isPopular", "isActive"] as const;
const PRICE_FIELDS = ["basePrice", "expressPrice", "standardPrice", "monthlyFinancing"] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An operator's edit of a catalogue app, in one transaction with its audit entries: the details
 * (app.update, the changed fields before and after) and, when the prices differ from those in effect
 * or a later time is given, a price change (app.price) effective at `effectiveAt` (null: at once,
 * by the database's clock, so the next read sees it). The slug stays: the app's address does not
 * move when it is renamed. Public pages' cached copies are dropped after the commit.
 */
export async function updateAppAsOperator(
  db: Db,
  operator: { id: string; email: string },
  id: number,
  form: AppFormInput,
  effectiveAt: Date | null,
): Promise<UpdateAppResult> {
  const result = await db.transaction(async (tx): Promise<UpdateAppResult> => {
    const [app] = await tx.select().from(apps).where(eq(apps.id, id)).for("update");
    if (!app) return { ok: false, reason: "not_found" };
    const price = currentPrice(tx);
    const [now] = await tx
      .select(price.columns)
      .from(apps)
      .leftJoinLateral(price.subquery, sql`true`)
      .where(eq(apps.id, id));

    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const field of DETAIL_FIELDS) {
      if (!same(app[field], form[field])) {
        before[field] = app[field];
        after[field] = form[field];
      }
    }
    const details = Object.keys(after).length > 0;

    const newPrice = {
      basePrice: form.basePrice,
      expressPrice: form.expressPrice,
      standardPrice: form.standardPrice,
      monthlyFinancing: String(form.monthlyFinancing),
    };
    const priceDiffers = PRICE_FIELDS.some((f) => !same(now?.[f], newPrice[f]));
    const priceChange = effectiveAt ? "scheduled" : priceDiffers ? "now" : "none";

    if (details) {
      await tx
        .update(apps)
        .set({ ...(after as Partial<typeof apps.$inferInsert>), updatedAt: sql`now()` })
        .where(eq(apps.id, id));
      await recordAudit(tx, { operator, action: "app.update", subjectType: "app", subjectId: String(id), before, after });
    }
    if (priceChange !== "none") {
      const [inserted] = await tx
        .insert(appPrices)
        .values({ appId: id, ...newPrice, effectiveAt: effectiveAt ?? sql`now()`, createdBy: operator.id })
        .returning({ id: appPrices.id, effectiveAt: appPrices.effectiveAt });
      if (!details)
        await tx
          .update(apps)
          .set({ updatedAt: sql`now()` })
          .where(eq(apps.id, id));
      await recordAudit(tx, {
        operator,
        action: "app.price",
        subjectType: "app",
        subjectId: String(id),
        before: now ? { ...now } : null,
        after: { ...newPrice, effectiveAt: inserted!.effectiveAt.toISOString(), priceId: inserted!.id },
      });
    }
    return { ok: true, details, price: priceChange };
  });
  if (result.ok && (result.details || result.price !== "none")) catalogueChanged();
  return result;
}
