// The long-lived services a server (or a test, or a benchmark) runs on.
import type { Config } from "./config.js";
import { configureDatabase, createDb, type PrepareDirect } from "./db/client.js";
import { sqliteTableVersions } from "./db/table-versions.js";
import { createCaches } from "./domain/caches.js";
import type { Services } from "./domain/context.js";
import { createEncryption, loadEncryptionKey } from "./domain/encryption.js";
import { createUrlGuard } from "./webhooks/url-guard.js";
import "./domain/subscribers.js";

export async function createServices(config: Config, now: () => Date = () => new Date()): Promise<Services> {
  let prepare: PrepareDirect | undefined;
  const { db, stats } = createDb(config.databaseUrl, (direct) => (prepare = direct));
  await configureDatabase(db);
  return {
    db, sqlStats: stats, config, now, caches: createCaches(sqliteTableVersions(prepare!, stats)),
    encryption: createEncryption(loadEncryptionKey(config)),
    urlGuard: createUrlGuard({ allowLocal: config.allowLocalWebhooks }),
  };
}
