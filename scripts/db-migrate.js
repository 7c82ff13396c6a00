// `npm run db:migrate`: the release step. Applies the schema's migrations, installs the job queue's
// schema and upserts the catalogue, against MIGRATION_DATABASE_URL (a direct connection, not through
// a transaction pooler) or DATABASE_URL, else the PGlite folder DATA_DIR; then exits. Run it once
// per release before the new instances start, with MIGRATE_ON_BOOT=0 on them
// (docs/decisions/0069-release-step-migrations.md). Safe beside running instances and twice at
// once: the migrations take a transaction-level lock. On PGlite it takes the folder's lock, so it
// refuses while a server holds the folder (that server migrates at its own start).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadEnvFile } from "../app/server/process/env-file.server.js";

// The same settings as the server: DATABASE_URL, MIGRATION_DATABASE_URL or DATA_DIR may be in .env.
loadEnvFile();

const bundle = path.resolve(process.env.BUILD_DIR || "build", "server/index.js");
if (!existsSync(bundle)) {
  console.error(`No build at ${bundle}: run \`npm run build\` first (the release step runs the build's code).`);
  process.exit(1);
}

let code = 0;
try {
  const { runReleaseStep } = await import(pathToFileURL(bundle).href);
  const started = performance.now();
  const done = await runReleaseStep();
  console.log(
    `Release step done on ${done.kind}: ${done.migrationsApplied} migration(s) applied, ` +
      `${done.apps} apps and ${done.addons} add-ons upserted, in ${Math.round(performance.now() - started)} ms.`,
  );
} catch (error) {
  console.error(`Release step failed: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
}
process.exit(code);
