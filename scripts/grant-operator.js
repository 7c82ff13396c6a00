// `npm run grant-operator -- <email>`: gives the account with this email the 'operator' role
// (access to /admin). The account must exist and its email be verified (sign up first). Opens the
// same database as the server (DATABASE_URL, else the PGlite folder DATA_DIR, default ./data) the way
// app/server/db/client.server.ts openDatabase does: fsync on, migrations applied first, and on
// PGlite the folder's lock taken first. A PGlite folder is one process's: while a server holds it,
// this refuses and says to grant from /admin → Operators instead (docs/decisions/0020).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DataDirInUseError, lockDataDir } from "../app/server/db/data-dir-lock.server.js";
import { loadEnvFile } from "../app/server/process/env-file.server.js";

// The same settings as the server: DATABASE_URL or DATA_DIR may be in .env.
loadEnvFile();

const email = (process.argv[2] ?? "").trim().toLowerCase();
if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || process.argv.length > 3) {
  console.error("usage: npm run grant-operator -- <email>");
  process.exit(2);
}

const migrationsFolder = path.resolve(process.cwd(), "drizzle");
const databaseUrl = process.env.DATABASE_URL || undefined;
let query;
let close;

if (databaseUrl) {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(727274)");
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock(727274)").catch(() => {});
    client.release();
  }
  query = async (text, params) => (await pool.query(text, params)).rows;
  close = () => pool.end();
} else {
  const dataDir = path.resolve(process.env.DATA_DIR || "./data");
  mkdirSync(dataDir, { recursive: true });
  // Before PGlite touches the folder: a second PGlite beside a live server overwrites its commits
  // when it closes, and can leave the folder unopenable.
  let unlock;
  try {
    unlock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error("A server is running on this data folder: grant it from /admin → Operators, or stop the server first.");
    process.exit(1);
  }
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    // The migrations create pg_trgm (the /apps search indexes): PGlite must load it, as the server does.
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = new PGlite({
      dataDir,
      startParams: PGlite.defaultStartParams.filter((p) => p !== "-F"),
      relaxedDurability: false,
      extensions: { pg_trgm },
    });
    await client.waitReady;
    await migrate(drizzle(client), { migrationsFolder });
    query = async (text, params) => (await client.query(text, params)).rows;
    close = async () => {
      await client.close();
      unlock();
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

let code = 0;
try {
  const [user] = await query('select id, email_verified from "user" where lower(email) = $1 limit 1', [email]);
  if (!user) {
    console.error(`No account with the email ${email}. Sign up first, then run this again.`);
    code = 1;
  } else if (!user.email_verified) {
    console.error(`${email} has not verified its email address yet. Open the verification email first, then run this again.`);
    code = 1;
  } else {
    const inserted = await query(
      "insert into user_roles (user_id, role) values ($1, 'operator') on conflict do nothing returning user_id",
      [user.id],
    );
    console.log(inserted.length ? `${email} is now an operator.` : `${email} was already an operator.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  code = 1;
} finally {
  await close();
}
process.exit(code);
