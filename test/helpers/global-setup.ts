// Migrates one template SQLite database per test run; each test file copies it (see app.ts).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../../src/db/migrate.js";

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-test-"));
  const template = path.join(dir, "template.db");
  await applyMigrations(`file:${template}`);
  project.provide("templateDb", template);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
  }
}
