import { eq, sql } from "drizzle-orm";
import { slugify } from "~/catalogue/slugs";
import type { AppFormInput } from "~/lib/admin/app-form";
import type { Db } from "../db/client.server";
import { apps } from "../db/schema";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { recordAudit } from "./audit.server";

/**
 * A new catalogue app from the console, with its audit entry (app.create) in the same transaction.
 * Its id follows the highest one; its slug is its name's (app/catalogue/slugs.ts), with the id
 * appended when another app has it, like the seed's rule. Its prices are its list price, in effect
 * at once. New apps start with no reviews, and last in /apps' order (the insert trigger places them).
 */
export async function createAppAsOperator(
  db: Db,
  operator: { id: string; email: string },
  form: AppFormInput,
): Promise<{ id: number; slug: string }> {
  const created = await db.transaction(async (tx) => {
    // One create at a time: the next id and a free slug are read, then taken.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('catalogue:create-app'))`);
    const [top] = await tx.select({ max: sql<number | null>`max(${apps.id})` }).from(apps);
    const id = Number(top?.max ?? 0) + 1;
    const base = slugify(form.name);
    const [taken] = await tx.select({ id: apps.id }).from(apps).where(eq(apps.slug, base)).limit(1);
    const slug = taken ? `${base}-${id}` : base;
    const row = {
      id,
      slug,
      name: form.name,
      description: form.description,
      industry: form.industry,
      features: form.features,
      deliveryTime: form.deliveryTime,
      isPopular: form.isPopular,
      isActive: form.isActive,
      basePrice: form.basePrice,
      expressPrice: form.expressPrice,
      standardPrice: form.standardPrice,
      monthlyFinancing: String(form.monthlyFinancing),
      rating: 5,
      reviews: 0,
    };
    const [inserted] = await tx.insert(apps).values(row).returning({ position: apps.position });
    await recordAudit(tx, {
      operator,
      action: "app.create",
      subjectType: "app",
      subjectId: String(id),
      before: null,
      after: { ...row, position: inserted!.position },
    });
    return { id, slug };
  });
  catalogueChanged();
  return created;
}
