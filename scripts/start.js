// `npm start`: serve the production build, building it first when there is none.
import { existsSync } from "node:fs";
import { spawnSync, spawn } from "node:child_process";
import { loadEnvFile } from "../app/server/process/env-file.server.js";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../app/server/process/processes.server.js";

// BUILD_DIR may be in .env; server.js reads the file again, for `node server.js` started alone.
loadEnvFile();

const buildDir = process.env.BUILD_DIR || "build";
if (!existsSync(`${buildDir}/server/index.js`) || !existsSync(`${buildDir}/client`)) {
  console.log("No production build found: building it first (npm run build)...");
  const built = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.js"], {
  stdio: "inherit",
  env: { NODE_ENV: "production", ...SERVER_ENV, ...process.env },
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
