// Writes prisma/postgresql/schema.prisma from prisma/schema.prisma (the one source of the models):
// the same models for the PostgreSQL provider, generating a second client. Runs at install
// (postinstall) before `prisma generate`; the output is not committed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRESQL_SCHEMA = path.join(root, "prisma", "postgresql", "schema.prisma");

export function postgresqlSchema(sqlite: string): string {
  const replaced = sqlite
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/url\s*=\s*"file:[^"]*"/, 'url      = "postgresql://localhost/forgeline"')
    .replace('output       = "../src/generated/prisma"', 'output       = "../../src/generated/prisma-postgresql"')
    // the Pothos types come from the SQLite client: the models are the same
    .replace(/generator pothos \{[^}]*\}\n\n/, "");
  if (replaced.includes('"sqlite"') || replaced.includes('"file:') || !replaced.includes("prisma-postgresql") || replaced.includes("prisma-pothos-types")) {
    throw new Error("prisma/schema.prisma no longer has the shape scripts/postgresql-schema.ts rewrites");
  }
  return `// GENERATED from prisma/schema.prisma by scripts/postgresql-schema.ts; do not edit.\n${replaced}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  mkdirSync(path.dirname(POSTGRESQL_SCHEMA), { recursive: true });
  writeFileSync(POSTGRESQL_SCHEMA, postgresqlSchema(readFileSync(SQLITE_SCHEMA, "utf8")));
}
