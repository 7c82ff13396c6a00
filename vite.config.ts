import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  environments: {
    // The islands script of the home page is a client entry of its own beside React Router's
    // (docs/decisions/0019); the server finds its file in the Vite manifest the build keeps.
    client: { build: { rolldownOptions: { input: ["./app/islands/home.client.tsx"] } } },
    // The SSR bundle's entry is our Express app, so the production server imports one file that
    // already contains the routes, the database layer and the request handler.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
  },
  build: { manifest: true },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
});
