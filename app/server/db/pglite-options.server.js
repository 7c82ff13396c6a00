// @ts-check
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * PGlite's buffer pool. Postgres's default, 128 MB, is zeroed inside the WebAssembly memory at every
 * start (a third of PGlite's start, in page faults) and then held for the life of the process, for a
 * database that is a few tens of megabytes; a page the pool does not hold is read from the folder
 * through the operating system's cache (docs/decisions/0093-pglite-shared-buffers.md).
 */
const SHARED_BUFFERS = "32MB";

/**
 * How a PGlite folder is opened: by the server and by the tools node runs without a build
 * (scripts/grant-operator.js, bench/db-statements.js). Plain JavaScript with JSDoc types, so all of
 * them open it with the same settings.
 * @param {string} dataDir
 */
export function pgliteOptions(dataDir) {
  return {
    dataDir,
    // PGlite's defaults start Postgres with -F (fsync off): a crash could lose committed rows.
    startParams: [...PGlite.defaultStartParams.filter((p) => p !== "-F"), "-c", `shared_buffers=${SHARED_BUFFERS}`],
    relaxedDurability: false,
    // PGlite ships contrib extensions separately and loads only those named here; migration 0005
    // creates pg_trgm for the catalogue search indexes.
    extensions: { pg_trgm },
  };
}
