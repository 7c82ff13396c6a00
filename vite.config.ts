import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * lucide-react's icons render through app/lib/lucide-icon.tsx, which builds each icon's markup once
 * instead of on every render (docs/decisions/0063-cheap-signed-in-pages.md). Only lucide's own
 * `createLucideIcon` is pointed at it; the build fails if that module is never seen (a lucide upgrade
 * that moved it), rather than silently rendering the slow way.
 */
function lucideCachedIcon(): Plugin {
  const replacement = path.resolve(import.meta.dirname, "app/lib/lucide-icon.tsx");
  const createLucideIcon = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]createLucideIcon\.mjs$/;
  let replaced = false;
  return {
    name: "lucide-cached-icon",
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== "./Icon.mjs" || !importer || !createLucideIcon.test(importer)) return null;
      replaced = true;
      return replacement;
    },
    buildEnd(error) {
      if (!error && this.environment.config.command === "build" && !replaced) {
        this.error("lucide-cached-icon: lucide-react's createLucideIcon.mjs never imported ./Icon.mjs (lucide upgraded?)");
      }
    },
  };
}

/**
 * Packages compiled into the server bundle instead of loaded from node_modules at start. Node's
 * loader looks up the nearest package.json of every file it loads, and these packages are many
 * files each (drizzle-orm's package.json alone is 179 KB, read again for each of its files), or
 * barrels whose unused parts cost at start (@react-email/components loads prismjs for a code block
 * no email has). Bundled, rolldown keeps only what is used. What stays external: native or
 * file-reading packages (PGlite's WebAssembly, pino's worker transport, pg, pg-boss), React itself
 * (one copy shared with react-dom), and the rest, whose start cost is small.
 * docs/decisions/0079-server-bundle-start.md
 */
const SSR_BUNDLED = [
  "lucide-react",
  "drizzle-orm",
  /^@react-email\//,
  "radix-ui",
  /^@radix-ui\//,
  "zod",
  "better-auth",
  /^@better-auth\//,
];

export default defineConfig({
  environments: {
    // The islands script of the home page is a client entry of its own beside React Router's
    // (docs/decisions/0019); the server finds its file in the Vite manifest the build keeps.
    client: { build: { rolldownOptions: { input: ["./app/islands/home.client.tsx"] } } },
    // The SSR bundle's entry is our Express app, so the production server imports one file that
    // already contains the routes, the database layer and the request handler. lucide-react is
    // bundled (not loaded from node_modules) so its icons render through the same cached Icon.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } }, resolve: { noExternal: SSR_BUNDLED } },
  },
  build: { manifest: true },
  resolve: { tsconfigPaths: true },
  plugins: [lucideCachedIcon(), tailwindcss(), reactRouter()],
});
