// Loaded before every integration test file (vitest.config.ts). On PostgreSQL each Vitest worker
// gets a database of its own next to TEST_DATABASE_URL's (`<name>_w1`, `<name>_w2`, created when
// missing): freshDatabase() empties and migrates its database for every file, so two files on one
// database would empty each other's, and with one database each the files can run side by side as
// they do on PGlite. Tests that open their own connection read TEST_DATABASE_URL, so it is rewritten
// here, before any test file is imported.
import pg from "pg";

const base = process.env.TEST_DATABASE_URL;
const worker = process.env.VITEST_POOL_ID;
if (base && worker && !process.env.TEST_DATABASE_URL_BASE) {
  const url = new URL(base);
  const name = `${decodeURIComponent(url.pathname.slice(1)) || "postgres"}_w${worker}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) {
      await admin.query(`create database "${name.replaceAll('"', '""')}"`).catch((error: { code?: string }) => {
        // Another run on this server made it first.
        if (error.code !== "42P04") throw error;
      });
    }
  } finally {
    await admin.end();
  }
  url.pathname = `/${encodeURIComponent(name)}`;
  process.env.TEST_DATABASE_URL_BASE = base;
  process.env.TEST_DATABASE_URL = url.toString();
}
