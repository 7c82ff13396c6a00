import { readFileSync } from "node:fs";
import path from "node:path";
import { errorMessage, log } from "~/server/log.server";
import { AFTER_PAINT, NEXT_TASK_FN, preloadAll } from "./hydrate-after-paint.server";

/**
 * The boot script of an islands page (docs/decisions/0019): after the first paint, preload the
 * islands entry and every chunk it imports (so they download in parallel, not as a chain), then
 * import it. The entry's file and imports come from the client build's Vite manifest.
 */

const ISLANDS_ENTRY = "app/islands/home.client.tsx";

type ViteManifest = Record<string, { file: string; imports?: string[] }>;

/** The entry's file first, then every chunk it imports, each once. */
export function islandsScripts(manifest: ViteManifest, entry: string): string[] | null {
  if (!manifest[entry]) return null;
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.push(`/${chunk.file}`);
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(entry);
  return files;
}

export function islandsBootScript(files: string[]): string {
  return [NEXT_TASK_FN, AFTER_PAINT, preloadAll(files), `await import(${JSON.stringify(files[0])});`].join("\n");
}

let boot: string | null | undefined;

/**
 * The boot script, or null where there is no client build to point at (the Vite dev server, or a
 * build without the manifest): the page is then served with React Router's scripts, as any other.
 */
export function islandsBoot(): string | null {
  if (boot !== undefined) return boot;
  boot = null;
  if (import.meta.env.DEV) return boot;
  // The same build folder server.js serves the client assets from.
  const manifestPath = path.resolve(process.env.BUILD_DIR || "build", "client/.vite/manifest.json");
  try {
    const files = islandsScripts(JSON.parse(readFileSync(manifestPath, "utf8")) as ViteManifest, ISLANDS_ENTRY);
    if (files) boot = islandsBootScript(files);
    else log.warn("islands entry missing from the client manifest; home hydrates with React Router", { manifestPath });
  } catch (error) {
    log.warn("client manifest unreadable; home hydrates with React Router", { manifestPath, error: errorMessage(error) });
  }
  return boot;
}
