// The long-lived services a server (or a test, or a benchmark) runs on.
import type { Config } from "./config.js";
import { createDb } from "./db/client.js";
import type { Services } from "./domain/context.js";
import { createTokenCache } from "./domain/token-store.js";

export function createServices(config: Config, now: () => Date = () => new Date()): Services {
  return { db: createDb(config.databaseUrl), config, now, tokenCache: createTokenCache() };
}
