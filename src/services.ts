// The long-lived services a server (or a test, or a benchmark) runs on.
import type { Config } from "./config.js";
import { configureDatabase, createDb } from "./db/client.js";
import type { Services } from "./domain/context.js";
import { createTokenCache } from "./domain/token-store.js";
import { createEncryption, loadEncryptionKey } from "./domain/encryption.js";
import { createUrlGuard } from "./webhooks/url-guard.js";
import "./domain/subscribers.js";

export async function createServices(config: Config, now: () => Date = () => new Date()): Promise<Services> {
  const { db, stats } = createDb(config.databaseUrl);
  await configureDatabase(db);
  return {
    db, sqlStats: stats, config, now, tokenCache: createTokenCache(),
    encryption: createEncryption(loadEncryptionKey(config)),
    urlGuard: createUrlGuard({ allowLocal: config.allowLocalWebhooks }),
  };
}
