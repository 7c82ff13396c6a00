// Starts the production server for Playwright on a new PGlite folder (a copy of the run's migrated
// template under `npm test`: tests/reliability/lib.js), with a webinar origin
// that differs from the site's so the embed's origin checks are exercised.
import { spawn } from "node:child_process";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../../../app/server/process/processes.server.js";
import { newDataDir } from "../../reliability/lib.js";

const dataDir = newDataDir("e2e-data-");
const port = process.env.PORT ?? "3107";
// Started as production starts it: the same Node flags and environment (processes.server.js).
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.js"], {
  stdio: "inherit",
  env: {
    ...SERVER_ENV,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    PUBLIC_SITE_URL: `http://localhost:${port}`,
    WEBINAR_EMBED_URL: process.env.WEBINAR_EMBED_URL ?? `http://127.0.0.1:${Number(port) + 1}/webinar/embed`,
    // The operator of tests/e2e/affiliates.spec.ts (the /admin view).
    OPERATOR_EMAILS: process.env.OPERATOR_EMAILS ?? "ops@example.com",
    // Every test makes accounts: full-strength scrypt would cost about 0.4 s of CPU each.
    PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST ?? "test",
    // Warnings and errors only: a line per request would bury a failure's own lines in the output.
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // Commissions payable at once, so admin-payouts.spec.ts pays what a referred customer just bought.
    AFFILIATE_HOLD_DAYS: process.env.AFFILIATE_HOLD_DAYS ?? "0",
    ...process.env,
    DATABASE_URL: "",
  },
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
