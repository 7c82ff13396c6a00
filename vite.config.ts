import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The SSR bundle's entry is our Express app, so the production server imports one file that
  // already contains the routes, the database layer and the request handler.
  environments: { ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } } },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
});
