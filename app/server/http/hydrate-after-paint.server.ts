/**
 * Loads the page's JavaScript after the first paint instead of beside it (docs/decisions/0016).
 *
 * React 19 hoists React Router's 15-40 `<link rel="modulepreload">` tags into `<head>`, next to the
 * stylesheet, and the boot module's static `import`s are fetched as soon as it is parsed: on a slow
 * link the page's JavaScript, many times the stylesheet's size, shares the bandwidth the stylesheet
 * needs, and the first paint waits for both. The server-rendered HTML is complete without JavaScript, so the document is
 * rewritten:
 * - the modulepreload links leave `<head>`;
 * - the boot module waits for the first frame, then adds the same preload links (so the modules
 *   still load in parallel, not as a chain of imports) and imports the route modules dynamically.
 *
 * The boot script stays the one inline module script React Router rendered (same element, same
 * nonce; the page cache hashes its new text), so hydration sees the elements it expects. Before it
 * imports React Router's entry it asks the page's submit gate (app/lib/submit-gate.ts) whether to
 * hydrate at all: not while a form's native submission is replacing the page.
 *
 * When the document does not have the shape this expects (a React Router upgrade changed it), it
 * is returned unchanged, so JavaScript loads as before and nothing breaks, and the server logs
 * why, once per reason: the page then loads its JavaScript before the first paint and hydrates
 * without the gate. hydrate-after-paint.framework.test.tsx renders documents with the installed
 * React Router and fails when its output no longer matches these patterns.
 */

import { log } from "~/server/log.server";

/** A preload link as React renders it: the whole tag. */
const PRELOAD_LINK = /^<link rel="modulepreload" href="([^"]+)"[^>]*\/>$/;
const MODULE_SCRIPT_OPEN = /^<script\b[^>]*\btype="module"[^>]*>$/;
const STATIC_IMPORT = /^\s*import \* as (\w+) from ("[^"]+");\s*$/;
const SIDE_EFFECT_IMPORT = /^\s*;?\s*import ("[^"]+");\s*$/;
const IMPORT_STATEMENT = /import\s*[\w*{"]/y;
const BOOT_MARKER = "__reactRouterRouteModules";
const PRELOAD_MENTION = 'rel="modulepreload"';

/**
 * A macrotask yield through MessageChannel, not setTimeout: timers are clamped in background tabs and
 * are what test clocks (Playwright's page.clock) pause, which would keep a page from hydrating.
 */
export const NEXT_TASK_FN =
  "const __rrNextTask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });";
const NEXT_TASK = "await __rrNextTask();";

/**
 * Waits for the first paint: the first-contentful-paint entry (buffered, so one that already
 * happened counts) or a frame (a task after requestAnimationFrame runs after that frame is
 * painted), whichever comes first; a hidden tab paints nothing and starts at once.
 */
export const AFTER_PAINT = `await new Promise((r) => {
  if (document.hidden) return r();
  const go = () => __rrNextTask().then(r);
  try { new PerformanceObserver((_l, o) => { o.disconnect(); go(); }).observe({ type: "paint", buffered: true }); } catch {}
  requestAnimationFrame(go);
});`;

const ENTRY_IMPORT = /(?<![\w.])import\(("[^"]+")\);\s*$/;

/**
 * Asks the submit gate before hydrating; a page a native submission is replacing never goes on
 * (the statement after this one imports React Router's entry, which would start hydration).
 */
export const GATE_CHECK = "if (window.submitGate && !window.submitGate.hydrate()) await new Promise(() => {});";

/** A statement that adds a modulepreload link for each URL (run after the first paint). */
export function preloadAll(urls: string[]): string {
  return `for (const href of ${JSON.stringify(urls)}) document.head.appendChild(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));`;
}

/** How often each pattern matched a document: what React Router and React rendered. */
export interface BootMatches {
  /** Inline module scripts that set `__reactRouterRouteModules`: 1. */
  bootScripts: number;
  /** `import * as routeN from "…";`: one per route module of the page. */
  routeImports: number;
  /** `import "…";` (the manifest when routes are not discovered lazily, the HMR runtime). */
  sideEffectImports: number;
  /** The final `import("…entry.client…");`: 1. */
  entryImports: number;
  /** `<link rel="modulepreload" href="…"/>` tags taken out of the document. */
  preloadLinks: number;
  /** `rel="modulepreload"` anywhere in the document: equal to preloadLinks, or one stayed behind. */
  preloadMentions: number;
}

export interface BootRewrite {
  html: string;
  /** Why the document was left as it was; null when it was rewritten. */
  unchanged: string | null;
  matches: BootMatches;
}

/** Where `needle` occurs in `text` (a string, or a document's bytes). */
function indexesOf(text: string | Buffer, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** A script's text: its byte offsets in the document (after its opening tag, at its closing tag) and the text. */
interface ScriptText {
  bodyStart: number;
  bodyEnd: number;
  body: string;
}

const CLOSE_SCRIPT = "</script>";

/**
 * The inline module scripts whose text sets `__reactRouterRouteModules`, found from that name
 * outwards: a document is scanned for one short string, not for every script's pattern.
 */
function bootScripts(doc: Buffer): ScriptText[] {
  const scripts: ScriptText[] = [];
  let searchFrom = 0;
  for (;;) {
    const marker = doc.indexOf(BOOT_MARKER, searchFrom);
    if (marker === -1) return scripts;
    const start = doc.lastIndexOf("<script", marker);
    const openEnd = start === -1 ? -1 : doc.indexOf(">", start);
    const bodyEnd = doc.indexOf(CLOSE_SCRIPT, marker);
    searchFrom = marker + BOOT_MARKER.length;
    // Inside a script's text: no closing tag between the script's start and the name.
    if (openEnd === -1 || openEnd > marker || bodyEnd === -1 || doc.lastIndexOf(CLOSE_SCRIPT, marker) > start) continue;
    if (!MODULE_SCRIPT_OPEN.test(doc.toString("utf8", start, openEnd + 1))) continue;
    const bodyStart = openEnd + 1;
    scripts.push({ bodyStart, bodyEnd, body: doc.toString("utf8", bodyStart, bodyEnd) });
    searchFrom = bodyEnd;
  }
}

/**
 * Whether a static import other than the two forms taken out is left (`import(` is a dynamic
 * import and stays): any would still load before the first paint.
 */
function hasOtherStaticImport(text: string): boolean {
  const statements = text.replace(/import\(/g, "");
  return indexesOf(statements, "import").some((at) => {
    if (at > 0 && !/[;\s]/.test(statements[at - 1]!)) return false;
    IMPORT_STATEMENT.lastIndex = at;
    return IMPORT_STATEMENT.test(statements);
  });
}

export interface BootRewriteOfBytes {
  doc: Buffer<ArrayBuffer>;
  /** Why the document was left as it was; null when it was rewritten. */
  unchanged: string | null;
  matches: BootMatches;
}

/**
 * Rewrites the document React rendered, as bytes: the server sends bytes, so the page is never
 * decoded to one string and encoded again; only the boot script and the preload links are read.
 */
export function rewriteBootBytes(doc: Buffer<ArrayBuffer>): BootRewriteOfBytes {
  const mentions = indexesOf(doc, PRELOAD_MENTION);
  const matches: BootMatches = {
    bootScripts: 0,
    routeImports: 0,
    sideEffectImports: 0,
    entryImports: 0,
    preloadLinks: 0,
    preloadMentions: mentions.length,
  };
  const leave = (unchanged: string): BootRewriteOfBytes => ({ doc, unchanged, matches });
  const boots = bootScripts(doc);
  matches.bootScripts = boots.length;
  if (boots.length !== 1) return leave(`${boots.length} boot scripts`);
  const boot = boots[0]!;

  // The imports are statements of their own lines: route modules first, then side-effect imports.
  const imports: { binding: string; url: string }[] = [];
  let lines = boot.body.split("\n");
  lines = lines.filter((line) => {
    const m = line.includes("import * as") ? STATIC_IMPORT.exec(line) : null;
    if (!m) return true;
    matches.routeImports += 1;
    imports.push({ binding: m[1]!, url: m[2]! });
    return false;
  });
  lines = lines.filter((line) => {
    const m = line.includes("import") ? SIDE_EFFECT_IMPORT.exec(line) : null;
    if (!m) return true;
    matches.sideEffectImports += 1;
    imports.push({ binding: `_${imports.length}`, url: m[1]! });
    return false;
  });
  if (imports.length === 0) return leave("no static import in the boot script");
  const rest = lines.join("\n");
  if (hasOtherStaticImport(rest)) return leave("a static import of another form");
  let entry = rest.trim();
  entry = entry.replace(ENTRY_IMPORT, (_m, url: string) => {
    matches.entryImports += 1;
    return `${GATE_CHECK}\n${NEXT_TASK} import(${url});`;
  });
  if (matches.entryImports !== 1) return leave("no import of the entry module at the end of the boot script");

  // Every mention must be the start of a link of the one form taken out; none may stay behind.
  const links: { start: number; end: number; href: string }[] = [];
  for (const at of mentions) {
    const start = at - "<link ".length;
    if (start < 0 || doc.toString("latin1", start, at) !== "<link ") continue;
    const close = doc.indexOf("/>", at);
    const m = close === -1 ? null : PRELOAD_LINK.exec(doc.toString("utf8", start, close + 2));
    if (m) links.push({ start, end: start + Buffer.byteLength(m[0]), href: m[1]! });
  }
  matches.preloadLinks = links.length;
  if (links.length !== matches.preloadMentions) return leave("a modulepreload link of another form");
  const script = [
    NEXT_TASK_FN,
    AFTER_PAINT,
    preloadAll(links.map((l) => l.href)),
    // One module graph per task (the preloads above already fetch them all in parallel): evaluated
    // together in one task, they blocked the main thread for hundreds of milliseconds on a phone.
    ...imports.map((i) => `const ${i.binding} = await import(${i.url}); ${NEXT_TASK}`),
    entry,
  ].join("\n");

  // The document once, from slices: the links cut out, the boot script's text replaced.
  const edits = [
    ...links.map((l) => ({ start: l.start, end: l.end, bytes: Buffer.alloc(0) })),
    { start: boot.bodyStart, end: boot.bodyEnd, bytes: Buffer.from(`\n${script}\n`) },
  ].sort((x, y) => x.start - y.start);
  const parts: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(doc.subarray(from, edit.start), edit.bytes);
    from = edit.end;
  }
  parts.push(doc.subarray(from));
  return { doc: Buffer.concat(parts), unchanged: null, matches };
}

/** Rewrites the document, or says why it did not (the same rewrite, on a string). */
export function rewriteBoot(html: string): BootRewrite {
  const { doc, unchanged, matches } = rewriteBootBytes(Buffer.from(html));
  return { html: unchanged === null ? doc.toString() : html, unchanged, matches };
}

const reported = new Set<string>();

export function hydrateAfterPaint(rendered: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const { doc: out, unchanged } = rewriteBootBytes(rendered);
  if (unchanged && !reported.has(unchanged)) {
    reported.add(unchanged);
    log.warn("boot script not rewritten: the page loads its JavaScript before the first paint, without the submit gate", {
      reason: unchanged,
    });
  }
  return out;
}
