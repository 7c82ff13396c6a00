import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseSync } from "vite";
import { describe, expect, it } from "vitest";

/**
 * Two layout rules that the type checker cannot see:
 * - server code never imports UI code: no file under app/server/ and no *.server.* module imports
 *   from app/components/ (the rules both need live in app/catalogue/ or app/lib/);
 * - no import cycle reaches a module under app/server/: every edge counts, type-only and dynamic
 *   `import()` included, so a dependency direction is a real choice rather than an accident.
 * Imports are read with the parser Vite already ships (oxc), not with regular expressions, so a
 * specifier in a comment or a string does not count.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".jsx", ".mjs", "/index.ts", "/index.tsx", "/index.js"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Every module specifier a file names: static imports, re-exports and literal dynamic imports. */
function importSpecifiers(file: string, source: string): string[] {
  const { module, errors } = parseSync(file, source);
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0]?.message}`);
  const specifiers = module.staticImports.map((i) => i.moduleRequest.value);
  for (const exported of module.staticExports) {
    for (const entry of exported.entries) if (entry.moduleRequest) specifiers.push(entry.moduleRequest.value);
  }
  for (const dynamic of module.dynamicImports) {
    const literal = /^(["'`])([^"'`$]*)\1$/.exec(source.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end));
    if (literal?.[2]) specifiers.push(literal[2]);
  }
  return specifiers;
}

/** The file under app/ a specifier names, or undefined for a package or a file outside app/. */
function resolveInApp(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");
const isServerModule = (file: string) => rel(file).startsWith("app/server/") || /\.server\.[^/]+$/.test(file);
const isComponent = (file: string) => rel(file).startsWith("app/components/");

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(APP)) {
    const targets = importSpecifiers(file, readFileSync(file, "utf8")).flatMap((specifier) => {
      const target = resolveInApp(file, specifier);
      return target ? [target] : [];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe("import rules", () => {
  const graph = importGraph();

  it("reads every kind of import", () => {
    const source = [
      'import { a } from "~/one";',
      'import type { B } from "./two";',
      'export { c } from "../three";',
      'export * from "./four";',
      '// import { d } from "~/not-an-import";',
      'const e = await import("./five");',
      "const f = await import(`./${name}`);",
    ].join("\n");
    expect(importSpecifiers("probe.ts", source)).toEqual(["~/one", "./two", "../three", "./four", "./five"]);
  });

  it("finds a cycle, including through a type-only import", () => {
    const cyclic = new Map([
      ["a", ["b"]],
      ["b", ["a"]],
      ["c", ["c"]],
      ["d", ["a"]],
    ]);
    expect(importCycles(cyclic)).toEqual([["a", "b"], ["c"]]);
  });

  it("no server module imports from app/components/", () => {
    const offenders = [...graph].flatMap(([file, targets]) =>
      isServerModule(file) ? targets.filter(isComponent).map((target) => `${rel(file)} -> ${rel(target)}`) : [],
    );
    expect(offenders).toEqual([]);
  });

  it("no import cycle reaches a module under app/server/", () => {
    const cycles = importCycles(graph)
      .filter((component) => component.some((file) => rel(file).startsWith("app/server/")))
      .map((component) => component.map(rel));
    expect(cycles).toEqual([]);
  });
});
