import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_FILES } from "./runtime-files.js";

/** The repository's own files a module imports by a relative path, static or dynamic, from the repository root. */
function localImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]!);
  return specifiers.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)));
}

/** Everything `start` reaches through relative imports. */
function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...localImports(file));
  }
  return seen;
}

describe("RUNTIME_FILES", () => {
  it("holds every file server.js and the release step import outside the bundle", () => {
    const needed = new Set([...reachable("server.js"), ...reachable("scripts/db-migrate.js")]);
    expect([...needed].filter((file) => !RUNTIME_FILES.includes(file))).toEqual([]);
    expect(RUNTIME_FILES.filter((file) => !existsSync(file))).toEqual([]);
  });

  it("is what the Dockerfile's runtime stage copies and what README tells an operator to ship", () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    const runtime = dockerfile.slice(dockerfile.indexOf(" AS runtime"));
    const copied = [...runtime.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(" "));
    expect(copied.sort()).toEqual([...RUNTIME_FILES].sort());
    const readme = readFileSync("README.md", "utf8");
    const production = readme.slice(
      readme.indexOf("## Production"),
      readme.indexOf("\n## ", readme.indexOf("## Production") + 1),
    );
    const unnamed = RUNTIME_FILES.filter((file) => file.endsWith(".js") && !production.includes(`\`${file}\``));
    expect(unnamed).toEqual([]);
  });
});
