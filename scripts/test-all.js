// `npm test`: every check, in the order that fails fastest. Each step's output streams through;
// the first failing step stops the run with its exit code.
import { spawnSync } from "node:child_process";

const steps = [
  ["typecheck", "npm", ["run", "-s", "typecheck"]],
  ["lint", "npm", ["run", "-s", "lint"]],
  ["format", "npm", ["run", "-s", "format:check"]],
  ["unit + integration", "npx", ["vitest", "run"]],
  ["build", "npm", ["run", "-s", "build"]],
  ["end-to-end", "npx", ["playwright", "test"]],
];

for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: "inherit" });
  console.log(`=== ${name}: ${result.status === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
