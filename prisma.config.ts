// Prisma CLI configuration: the WebAssembly schema engine ("js") with our driver adapter, so that
// generate, migrate and studio work offline (Prisma 7's native engine download is not reachable).
import { defineConfig } from "prisma/config";
import { migrationAdapterFactory } from "./src/db/adapter.js";
import { isPostgresqlUrl } from "./src/db/postgresql.js";

// PostgreSQL has its own schema (generated from prisma/schema.prisma: scripts/postgresql-schema.ts)
// and its own migrations; DATABASE_URL says which database the command is for.
const folder = isPostgresqlUrl(process.env.DATABASE_URL ?? "") ? "prisma/postgresql" : "prisma";

export default defineConfig({
  experimental: { adapter: true, studio: true },
  engine: "js",
  schema: `${folder}/schema.prisma`,
  migrations: { path: `${folder}/migrations` },
  adapter: async () => migrationAdapterFactory(),
  studio: { adapter: async () => migrationAdapterFactory() },
});
