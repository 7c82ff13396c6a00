// `npm run grant-operator -- <email>`: gives the account with this email the 'operator' role
// (access to /admin). The account must exist and its email be verified (sign up first). Opens the
// same database as the server (DATABASE_URL, else the PGlite folder DATA_DIR, default ./data), on
// PGlite with fsync on and the folder's lock taken first. A PGlite folder is one process's: while a
// server holds it, this refuses and says to grant from /admin → Operators instead (docs/decisions/0020).
// It changes no schema: an account exists only where the server (or `npm run db:migrate`) has set
// the database up, and migrating is the release step's alone (docs/decisions/0069), which holds
// its lock in a transaction that a connection pooler keeps on one server connection.
import { existsSync } from "node:fs";
import path from "node:path";
import { DataDirInUseError, lockDataDir } from "../app/server/db/data-dir-lock.server.js";
import { loadEnvFile } from "../app/server/process/env-file.server.js";

// The same settings as the server: DATABASE_URL or DATA_DIR may be in .env.
loadEnvFile();

const NOT_SET_UP =
  "This database has no accounts yet: start the server (or run `npm run db:migrate`), sign up, then run this again.";

const email = (process.argv[2] ?? "").trim().toLowerCase();
if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || process.argv.length > 3) {
  console.error("usage: npm run grant-operator -- <email>");
  process.exit(2);
}

const databaseUrl = process.env.DATABASE_URL || undefined;
let query;
let close;

if (databaseUrl) {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  query = async (text, params) => (await pool.query(text, params)).rows;
  close = () => pool.end();
} else {
  const dataDir = path.resolve(process.env.DATA_DIR || "./data");
  // PGlite would make a new, empty database in a missing folder.
  if (!existsSync(dataDir)) {
    console.error(`${NOT_SET_UP} (no data folder at ${dataDir})`);
    process.exit(1);
  }
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
    // As the server opens it: fsync on, and pg_trgm (the /apps search indexes) loaded.
    const { pgliteOptions } = await import("../app/server/db/pglite-options.server.js");
    const client = new PGlite(pgliteOptions(dataDir));
    await client.waitReady;
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
  // 42P01: no such table, a database the server has never set up.
  console.error(error?.code === "42P01" ? NOT_SET_UP : error instanceof Error ? error.message : error);
  code = 1;
} finally {
  await close();
}
process.exit(code);
