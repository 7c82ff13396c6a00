// `npm run stripe:prices`: finds or creates at Stripe every catalogue Product and Price (billing
// plans, scaling tiers, member plans, add-ons, the distributor program, the quick-pick packages) by
// lookup key, and prints them. Checkouts and plan changes find or create the Price they need anyway
// (an app's is made at its first sale); running this after a catalogue price changes makes the new
// Prices before the first customer needs them, and lists what Stripe's reports will group by.
// Needs STRIPE_SECRET_KEY (STRIPE_API_URL points it at a stand-in). Loads the app's TypeScript
// modules through Vite, as the dev server does (docs/decisions/0060-plan-changes-with-proration.md).
// With DATABASE_URL the plans, the quick-pick packages and the published add-ons are priced as they
// sell now (an operator's price change makes a new Price, an add-on made in the console gets its
// own); without it, the typed lists at their list prices (a PGlite folder is the running server's
// alone).
import { createServer } from "vite";

if (!process.env.STRIPE_SECRET_KEY) {
  console.error("STRIPE_SECRET_KEY is not set: nothing to create the catalogue's prices in.");
  process.exit(2);
}

const vite = await createServer({
  configFile: false,
  appType: "custom",
  logLevel: "error",
  server: { middlewareMode: true, hmr: false, ws: false },
  resolve: { tsconfigPaths: true },
  optimizeDeps: { noDiscovery: true, include: [] },
});
let failed = false;

/**
 * The plans (the packages among them) and the published add-ons at their current amounts when the
 * database is PostgreSQL, else the typed lists at their list prices.
 */
async function cataloguePrices() {
  const { LIST_PLAN_CATALOGUE } = await vite.ssrLoadModule("/app/catalogue/plan-prices.ts");
  const { ADDONS } = await vite.ssrLoadModule("/app/catalogue/addons.ts");
  if (!process.env.DATABASE_URL) {
    console.log("DATABASE_URL is not set: plans and add-ons at their list prices.");
    return { plans: LIST_PLAN_CATALOGUE, addons: ADDONS };
  }
  const { openDatabase } = await vite.ssrLoadModule("/app/server/db/client.server.ts");
  const { currentPlanPrices } = await vite.ssrLoadModule("/app/server/catalogue/current-plan-prices.server.ts");
  const { listActiveAddons } = await vite.ssrLoadModule("/app/server/catalogue/addons.server.ts");
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "", poolSize: 1, migrate: false });
  try {
    return { plans: await currentPlanPrices(database.db), addons: await listActiveAddons(database.db) };
  } finally {
    await database.close();
  }
}

try {
  const { catalogueLines } = await vite.ssrLoadModule("/app/server/billing/stripe/catalogue-items.server.ts");
  const { ensureCataloguePrices } = await vite.ssrLoadModule("/app/server/billing/stripe/catalogue-prices.server.ts");
  const { stripeClient } = await vite.ssrLoadModule("/app/server/billing/stripe/client.server.ts");
  const { plans, addons } = await cataloguePrices();
  const rows = await ensureCataloguePrices(stripeClient(), catalogueLines(plans, addons));
  const width = Math.max(...rows.map((r) => r.lookupKey.length));
  for (const r of rows)
    console.log(`${r.created ? "created" : "found  "}  ${r.lookupKey.padEnd(width)}  ${r.priceId}  ${r.product}`);
  console.log(`${rows.length} prices, ${rows.filter((r) => r.created).length} created.`);
} catch (error) {
  failed = true;
  console.error(`stripe:prices failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await vite.close();
}
process.exit(failed ? 1 : 0);
