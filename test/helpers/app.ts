// A real Forgeline app on its own database (a copy of the migrated template: see test-database.ts), driven over
// HTTP requests in process: `app.fetch(new Request(...))`, exactly what the server runs.
import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { closeServices, createServices } from "../../src/services.js";
import { bootstrap } from "../../src/domain/instance/bootstrap.js";
import type { Services } from "../../src/domain/shared/context.js";
import { ApiClient } from "./api.js";
import { createDatabaseFrom, onPostgresql, TEST_ENCRYPTION_KEY } from "./test-database.js";

export const ROOT_TOKEN = "root-test-token-0123456789abcdef";
export const BASE_URL = "http://forgeline.test";

export interface TestApp {
  app: App;
  services: Services;
  /** client acting as root (admin) */
  root: ApiClient;
  /** anonymous client */
  anon: ApiClient;
  client(token?: string): ApiClient;
  dataDir: string;
  /** After changing rows directly in the database: drop what the app caches (token lookups). */
  forgetCaches(): void;
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "forgeline-app-"));
  const dbFile = path.join(dataDir, "forgeline.db");
  const database = onPostgresql
    ? { DATABASE_URL: await createDatabaseFrom(inject("templateDatabase")), WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }
    : { DATABASE_URL: `file:${dbFile}` };
  if (!onPostgresql) copyFileSync(inject("templateDb"), dbFile);
  const config = loadConfig({
    PUBLIC_URL: BASE_URL,
    DATA_DIR: dataDir,
    ...database,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    ...env,
  });
  const services: Services = await createServices(config);
  openServices.push(services);
  await bootstrap(services);
  const app = createApp(services, (e) => { if (process.env.DEBUG_TEST_ERRORS) console.error(e); });
  const client = (token?: string) => new ApiClient(app, token);
  return { app, services, root: client(ROOT_TOKEN), anon: client(), client, dataDir, forgetCaches: () => services.caches.registry.clearAll() };
}

/** The services of the apps this test file started (vitest runs files one after another in a worker). */
const openServices: Services[] = [];

/**
 * Closes every app the file started (test/helpers/close-apps.ts runs it after each file): their
 * database connections would otherwise linger until the pool's idle timeout, and files that follow
 * one another on PostgreSQL ran out of its 100 connections.
 */
export async function closeTestApps(): Promise<void> {
  const closing = openServices.splice(0);
  await Promise.all(closing.map((services) => closeServices(services).catch(() => {})));
}
