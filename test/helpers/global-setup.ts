// Migrates one template database per test run; each test app gets a copy of it (see app.ts and
// test-database.ts): a SQLite file, or on PostgreSQL (FORGELINE_TEST_DATABASE=postgresql) a
// database created from a template database.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../../src/db/migrate.js";
import { databaseUrlFor, dropDatabases, onPostgresql, withAdmin } from "./test-database.js";

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-test-"));
  const template = path.join(dir, "template.db");
  await applyMigrations(`file:${template}`);
  project.provide("templateDb", template);
  const prefix = `forgeline_test_${Date.now().toString(36)}_${process.pid}`;
  project.provide("templateDatabase", onPostgresql ? await migratedTemplateDatabase(prefix) : "");
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (onPostgresql) await dropDatabases(prefix);
  };
}

async function migratedTemplateDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_template`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  await applyMigrations(databaseUrlFor(name));
  return name;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** the migrated SQLite template file */
    templateDb: string;
    /** on PostgreSQL: the migrated template database's name ("" on SQLite) */
    templateDatabase: string;
  }
}
