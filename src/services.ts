// The long-lived services a server (or a test, or a benchmark) runs on.
import type { Config } from "./config.js";
import { configureDatabase, createDb, createPostgresqlDb, type DbHandle, type PrepareDirect } from "./db/client.js";
import { isPostgresqlUrl } from "./db/postgresql.js";
import { postgresqlTableVersions, sqliteTableVersions, type TableVersions } from "./db/table-versions.js";
import { createCaches } from "./domain/shared/caches.js";
import type { Services } from "./domain/shared/context.js";
import { createEncryption, loadEncryptionKey } from "./domain/shared/encryption.js";
import { publishLiveEventsOnCommit } from "./domain/live-events/publisher.js";
import { createUrlGuard } from "./net/url-guard.js";
import { hookDelivery } from "./webhooks/hook-delivery.js";
import { coalesced, NOTIFY_CHANNEL, wakeOnCommit } from "./webhooks/wake.js";
import { GitStore } from "./git/store.js";
import { afterCommit, type TransactionClient } from "./db/after-commit.js";
import { takeRemovedRepositories } from "./domain/repository/removal.js";
import { createRepositoryLocks } from "./git/locks.js";
import { logError } from "./observability/logger.js";
import { countStaleRead } from "./observability/metrics.js";
import "./event-subscribers.js";

export async function createServices(config: Config, now: () => Date = () => new Date()): Promise<Services> {
  const { db, stats, versions } = await openDatabase(config);
  const git = new GitStore(config.repositoriesDir);
  removeRepositoriesOnCommit(db, git);
  return {
    db, dialect: isPostgresqlUrl(config.databaseUrl) ? "postgresql" : "sqlite", sqlStats: stats, config, now, caches: createCaches(versions, countStaleRead),
    encryption: createEncryption(loadEncryptionKey(config)),
    urlGuard: createUrlGuard({ allowLocal: config.allowLocalWebhooks }),
    hookDelivery,
    git,
    repositoryLocks: createRepositoryLocks({
      databaseUrl: config.databaseUrl, postgresql: isPostgresqlUrl(config.databaseUrl), repositoriesDir: config.repositoriesDir,
    }),
  };
}

/** What each open database needs done to let go of its connections. */
const poolClosers = new WeakMap<object, () => Promise<void>>();

/**
 * Lets go of what the services hold: database connections, the repository locks' connections and
 * the cat-file processes of their repositories (a server stopping; a test file done with its app).
 */
export async function closeServices(services: Services): Promise<void> {
  services.git.close();
  await services.repositoryLocks.close();
  await services.db.$disconnect();
  await poolClosers.get(services.db)?.();
}

/** The repositories of projects whose deletion committed are removed from disk. */
function removeRepositoriesOnCommit(db: TransactionClient, git: GitStore): void {
  afterCommit(db, (tx) => {
    for (const projectId of takeRemovedRepositories(tx)) void git.remove(projectId).catch((error) => logError(`could not remove the repository of project ${projectId}`, error));
  });
}

/** The client for DATABASE_URL, and how its caches learn of other processes' writes. */
async function openDatabase({ databaseUrl, databasePool }: Config): Promise<DbHandle & { versions: TableVersions }> {
  if (isPostgresqlUrl(databaseUrl)) {
    const { db, stats, query, closePool } = await createPostgresqlDb(databaseUrl, databasePool);
    poolClosers.set(db, closePool);
    const versions = postgresqlTableVersions(query as (sql: string, prepareAs: string) => Promise<[string, unknown][]>);
    stats.onWrite = versions.wrote;
    stats.onRollback = versions.rolledBack;
    wakeOnCommit(db, coalesced(() => query(`NOTIFY ${NOTIFY_CHANNEL}`)));
    publishLiveEventsOnCommit(db, query);
    return { db, stats, versions };
  }
  let prepare: PrepareDirect | undefined;
  const { db, stats } = createDb(databaseUrl, (direct) => (prepare = direct));
  await configureDatabase(db); // opens the connection, so `prepare` is set
  wakeOnCommit(db);
  publishLiveEventsOnCommit(db);
  return { db, stats, versions: sqliteTableVersions(prepare!, stats) };
}
