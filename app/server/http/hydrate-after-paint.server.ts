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

const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const BOOT_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/g;
const STATIC_IMPORT = /^\s*import \* as (\w+) from ("[^"]+");\s*$/gm;
const SIDE_EFFECT_IMPORT = /^\s*;?\s*import ("[^"]+");\s*$/gm;

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

/** Rewrites the document, or says why it did not. */
export function rewriteBoot(html: string): BootRewrite {
  const matches: BootMatches = {
    bootScripts: 0,
    routeImports: 0,
    sideEffectImports: 0,
    entryImports: 0,
    preloadLinks: 0,
    preloadMentions: html.split('rel="modulepreload"').length - 1,
  };
  const leave = (unchanged: string): BootRewrite => ({ html, unchanged, matches });
  const boots = [...html.matchAll(BOOT_SCRIPT)].filter(([, , body]) => body!.includes("__reactRouterRouteModules"));
  matches.bootScripts = boots.length;
  if (boots.length !== 1) return leave(`${boots.length} boot scripts`);
  const [whole, open, body, close] = boots[0]!;

  const imports: { binding: string; url: string }[] = [];
  const rest = body!
    .replace(STATIC_IMPORT, (_m, name: string, url: string) => {
      matches.routeImports += 1;
      imports.push({ binding: name, url });
      return "";
    })
    .replace(SIDE_EFFECT_IMPORT, (_m, url: string) => {
      matches.sideEffectImports += 1;
      imports.push({ binding: `_${imports.length}`, url });
      return "";
    });
  if (imports.length === 0) return leave("no static import in the boot script");
  // Any static import left would still load before the first paint.
  if (/(^|[;\s])import\s*[\w*{"]/.test(rest.replace(/import\(/g, ""))) return leave("a static import of another form");
  let entry = rest.trim();
  entry = entry.replace(ENTRY_IMPORT, (_m, url: string) => {
    matches.entryImports += 1;
    return `${GATE_CHECK}\n${NEXT_TASK} import(${url});`;
  });
  if (matches.entryImports !== 1) return leave("no import of the entry module at the end of the boot script");

  const preloads = [...html.matchAll(PRELOAD_LINK)].map(([, href]) => href!);
  matches.preloadLinks = preloads.length;
  if (preloads.length !== matches.preloadMentions) return leave("a modulepreload link of another form");
  const boot = [
    NEXT_TASK_FN,
    AFTER_PAINT,
    preloadAll(preloads),
    // One module graph per task (the preloads above already fetch them all in parallel): evaluated
    // together in one task, they blocked the main thread for hundreds of milliseconds on a phone.
    ...imports.map((i) => `const ${i.binding} = await import(${i.url}); ${NEXT_TASK}`),
    entry,
  ].join("\n");

  return {
    html: html.replace(whole!, () => `${open}\n${boot}\n${close}`).replace(PRELOAD_LINK, ""),
    unchanged: null,
    matches,
  };
}

const reported = new Set<string>();

export function hydrateAfterPaint(html: string): string {
  const { html: out, unchanged } = rewriteBoot(html);
  if (unchanged && !reported.has(unchanged)) {
    reported.add(unchanged);
    log.warn("boot script not rewritten: the page loads its JavaScript before the first paint, without the submit gate", {
      reason: unchanged,
    });
  }
  return out;
}
