// What every domain function receives: the database, settings, a clock, and who is acting.
import type { Config } from "../../config.js";
import type { Db, SqlStats } from "../../db/client.js";
import type { User } from "../../generated/prisma/client.js";
import type { Caches } from "./caches.js";
import type { Encryption } from "./encryption.js";
import type { UrlGuard } from "../../net/url-guard.js";
import { createLoaders, type Loaders } from "./loaders.js";
import type { Dialect } from "./paths.js";
import type { HookDelivery } from "../web-hooks/delivery.js";
import type { GitStore } from "../../git/store.js";
import type { RepositoryLocks } from "../../git/locks.js";

export interface Actor {
  user: User;
  /** scopes of the token used (sudo keeps the admin token's scopes) */
  scopes: ReadonlySet<string>;
  tokenId: number | null;
}

export interface Services {
  db: Db;
  /** which database engine `db` talks to (the few statements that differ check it) */
  dialect: Dialect;
  /** statements sent to the database (statement budgets in tests) */
  sqlStats: SqlStats;
  config: Config;
  now: () => Date;
  /** rows kept between requests, emptied when their tables change (any process) */
  caches: Caches;
  /** secrets at rest (webhook url, token, URL variable and custom header values) */
  encryption: Encryption;
  /** SSRF guard for webhook URLs (ALLOW_LOCAL_WEBHOOKS) */
  urlGuard: UrlGuard;
  /** sends a hook's test and resend deliveries now (implemented by src/webhooks) */
  hookDelivery: HookDelivery;
  /** the projects' git repositories (REPOSITORIES_DIR) and what reading them keeps between requests */
  git: GitStore;
  /** one writer per repository at a time, across processes */
  repositoryLocks: RepositoryLocks;
}

export interface DomainContext extends Services {
  actor: Actor | null;
  /** this request's loaders and per-request caches (loaders.ts) */
  loaders: Loaders;
  /**
   * An old path of a moved project: GraphQL simply resolves it; REST raises ProjectMovedError
   * so that GET answers 301 and other methods 405, as GitLab's API does.
   */
  followProjectRedirects?: boolean;
  /**
   * The User-Agent and IP address of the request (GitLab's spam params), stored with what it
   * creates (user-agent-details.ts); absent outside requests. Personal data: never logged.
   */
  client?: RequestClient;
}

export interface RequestClient {
  userAgent: string | null;
  ipAddress: string | null;
}

export const isAdmin = (actor: Actor | null) => !!actor && actor.user.isAdmin;

/** A domain context outside a request (workers, sign-in pages, scripts, tests) with loaders of its own. */
export function systemContext(services: Services, actor: Actor | null = null): DomainContext {
  return { ...services, actor, loaders: createLoaders(services) };
}
