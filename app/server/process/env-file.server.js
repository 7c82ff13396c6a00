// Loads the operator's `.env` file when the production server (or a script that opens its database)
// starts. Vite reads `.env` only for the development server and the build, so without this a copied
// `.env.example` did nothing for `npm start` (docs/decisions/0054-local-origins-and-env-file.md).
// Plain JavaScript: server.js runs it before the bundle, and so before any setting is read.
import { existsSync } from "node:fs";

/**
 * Reads `file` into process.env with Node's own parser (`process.loadEnvFile`) when it exists.
 * A variable already in the environment wins over the file, an empty one included (it means "use
 * the default"): Node's behaviour here has differed between versions, so the earlier values are put
 * back whatever this version did.
 * @param {string} [file]
 * @returns {{ file: string, names: string[] } | null} the names the file set, or null without a file
 */
export function loadEnvFile(file = ".env") {
  if (!existsSync(file)) return null;
  const before = { ...process.env };
  process.loadEnvFile(file);
  const names = [];
  for (const name of Object.keys(process.env)) {
    if (name in before) process.env[name] = before[name];
    else names.push(name);
  }
  return { file, names };
}
