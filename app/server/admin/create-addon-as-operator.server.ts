import { eq, sql } from "drizzle-orm";
import { slugify } from "~/catalogue/slugs";
import type { NewAddonFormInput } from "~/lib/admin/addon-form";
import type { Db } from "../db/client.server";
import { addonLibrary } from "../db/schema";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { recordAudit } from "./audit.server";

/** Ids the console's addresses use for themselves (/admin/addons/new). */
const RESERVED_IDS: ReadonlySet<string> = new Set(["new"]);

/**
 * A new add-on of the dashboard marketplace from the console, with its audit entry (addon.create)
 * in the same transaction, like a new app (create-app-as-operator.server.ts). Its id is its name's
 * slug (add-on ids are slugs: packages and checkout refer to them), with -2, -3… appended when
 * another add-on has it; it is never changed afterwards. Its monthly price is its list price, in
 * effect at once, and it goes last in the marketplace's order (the insert trigger places it).
 */
export async function createAddonAsOperator(
  db: Db,
  operator: { id: string; email: string },
  form: NewAddonFormInput,
): Promise<{ id: string; position: number }> {
  const created = await db.transaction(async (tx) => {
    // One create at a time: a free id is read, then taken.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('catalogue:create-addon'))`);
    const base = slugify(form.name);
    let id = base;
    for (
      let n = 2;
      RESERVED_IDS.has(id) ||
      (await tx.select({ id: addonLibrary.id }).from(addonLibrary).where(eq(addonLibrary.id, id))).length > 0;
      n++
    )
      id = `${base}-${n}`;
    const row = {
      id,
      name: form.name,
      description: form.description,
      category: form.category,
      features: form.features,
      isActive: form.isActive,
      monthlyPrice: form.monthlyPrice,
    };
    const [inserted] = await tx.insert(addonLibrary).values(row).returning({ position: addonLibrary.position });
    const position = inserted!.position;
    await recordAudit(tx, {
      operator,
      action: "addon.create",
      subjectType: "addon",
      subjectId: id,
      before: null,
      after: { ...row, position },
    });
    return { id, position };
  });
  catalogueChanged();
  return created;
}
