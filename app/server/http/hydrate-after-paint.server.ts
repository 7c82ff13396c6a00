/**
 * Loads the page's JavaScript after the first paint instead of beside it (docs/decisions/0016).
 *
 * React 19 hoists React Router's 15-40 `<link rel="modulepreload">` tags into `<head>`, next to the
 * stylesheet, and the boot module's static `import`s are fetched as soon as it is parsed: on a slow
 * link the page's 120-170 KB of JavaScript shares the bandwidth the stylesheet needs, and the first
 * paint waits for both. The server-rendered HTML is complete without JavaScript, so the document is
 * rewritten:
 * - the modulepreload links leave `<head>`;
 * - the boot module waits for the first frame, then adds the same preload links (so the modules
 *   still load in parallel, not as a chain of imports) and imports the route modules dynamically.
 *
 * The boot script stays the one inline module script React Router rendered (same element, same
 * nonce; the page cache hashes its new text), so hydration sees the elements it expects. When the
 * document does not have the shape this expects (a React Router upgrade changed it), it is returned
 * unchanged: JavaScript then loads as before, nothing breaks.
 */

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

/** A statement that adds a modulepreload link for each URL (run after the first paint). */
export function preloadAll(urls: string[]): string {
  return `for (const href of ${JSON.stringify(urls)}) document.head.appendChild(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));`;
}

export function hydrateAfterPaint(html: string): string {
  const boots = [...html.matchAll(BOOT_SCRIPT)].filter(([, , body]) => body!.includes("__reactRouterRouteModules"));
  if (boots.length !== 1) return html;
  const [whole, open, body, close] = boots[0]!;

  const imports: { binding: string; url: string }[] = [];
  const rest = body!
    .replace(STATIC_IMPORT, (_m, name: string, url: string) => {
      imports.push({ binding: name, url });
      return "";
    })
    .replace(SIDE_EFFECT_IMPORT, (_m, url: string) => {
      imports.push({ binding: `_${imports.length}`, url });
      return "";
    });
  // Any static import left would still load before the first paint: leave the document as it is.
  if (imports.length === 0 || /(^|[;\s])import\s*[\w*{"]/.test(rest.replace(/import\(/g, ""))) return html;

  const preloads = [...html.matchAll(PRELOAD_LINK)].map(([, href]) => href!);
  const boot = [
    NEXT_TASK_FN,
    AFTER_PAINT,
    preloadAll(preloads),
    // One module graph per task (the preloads above already fetch them all in parallel): evaluated
    // together in one task, they blocked the main thread for hundreds of milliseconds on a phone.
    ...imports.map((i) => `const ${i.binding} = await import(${i.url}); ${NEXT_TASK}`),
    rest.trim().replace(ENTRY_IMPORT, (_m, url: string) => `${NEXT_TASK} import(${url});`),
  ].join("\n");

  return html.replace(whole!, () => `${open}\n${boot}\n${close}`).replace(PRELOAD_LINK, "");
}
