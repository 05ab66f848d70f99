// Prisma CLI configuration: the WebAssembly schema engine ("js") with our driver adapter, so that
// generate, migrate and studio work offline (Prisma 7's native engine download is not reachable).
import { defineConfig } from "prisma/config";
import { migrationAdapterFactory } from "./src/db/adapter.js";

export default defineConfig({
  experimental: { adapter: true, studio: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  adapter: async () => migrationAdapterFactory(),
  studio: { adapter: async () => migrationAdapterFactory() },
});
