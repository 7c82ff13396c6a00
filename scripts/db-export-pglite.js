// `npm run db:export-pglite -- --to postgres://user:pass@host:5432/db [--from ./data] [--replace]`:
// copies every row of a PGlite data folder (default DATA_DIR, else ./data) into a PostgreSQL
// database, after migrating it, in one transaction: on any failure the target is left as it was.
// The folder is copied first under its lock (stop the server that uses it), so it is never written.
// A target that already holds data is refused unless --replace (which empties its tables first).
// Then point DATABASE_URL at the target and start the server (DEPLOY.md, "From PGlite to PostgreSQL").
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { loadEnvFile } from "../app/server/process/env-file.server.js";

loadEnvFile();

const usage = "usage: npm run db:export-pglite -- --to postgres://user:pass@host:5432/db [--from ./data] [--replace]";
let args;
try {
  args = parseArgs({
    options: { from: { type: "string" }, to: { type: "string" }, replace: { type: "boolean", default: false } },
    strict: true,
  }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
if (!args.to || !/^postgres(ql)?:\/\//.test(args.to)) {
  console.error(usage);
  process.exit(2);
}
const from = path.resolve(args.from ?? (process.env.DATA_DIR || "./data"));
if (!existsSync(path.join(from, "PG_VERSION"))) {
  console.error(`${from} is not a PGlite data folder (no PG_VERSION in it).`);
  process.exit(2);
}

const bundle = path.resolve(process.env.BUILD_DIR || "build", "server/index.js");
if (!existsSync(bundle)) {
  console.error(`No build at ${bundle}: run \`npm run build\` first (the export runs the build's code).`);
  process.exit(1);
}
// The bundle validates the environment at import: the server's own database settings are not this
// command's (the source and target are its arguments).
delete process.env.DATABASE_URL;
delete process.env.MIGRATION_DATABASE_URL;

let code = 0;
try {
  const { exportPgliteToPostgres } = await import(pathToFileURL(bundle).href);
  const tables = await exportPgliteToPostgres({
    from,
    to: args.to,
    replace: args.replace,
    progress: (line) => console.log(line),
  });
  const rows = tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(`Exported ${rows} rows in ${tables.length} tables. Set DATABASE_URL to the target and start the server.`);
} catch (error) {
  console.error(`Export failed, the target is unchanged: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
}
process.exit(code);
