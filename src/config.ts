// Every setting, read from the environment once and validated at start.
import path from "node:path";
import { availableParallelism } from "node:os";
import { isCidrOrAddress } from "./observability/monitoring-access.js";
import { LOG_LEVELS, type LogFormat, type LogLevel, type LogSettings } from "./observability/logger.js";

export interface Config {
  host: string;
  port: number;
  publicUrl: string;
  databaseUrl: string;
  dataDir: string;
  /** where uploaded files (avatars) are stored */
  uploadsDir: string;
  initialRootToken: string | undefined;
  /** Longest accepted query string (bytes) before answering 414. */
  maxQueryStringLength: number;
  /** Largest accepted request body (bytes, by Content-Length) before answering 413. */
  maxBodyBytes: number;
  version: string;
  /** ALLOW_LOCAL_WEBHOOKS: hooks may target loopback and local-network addresses (never cloud metadata). */
  allowLocalWebhooks: boolean;
  /** DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT: each process's PostgreSQL connections (unused on SQLite). */
  databasePool: { size: number; statementTimeoutMs: number; idleInTransactionTimeoutMs: number };
  /** WEBHOOK_ENCRYPTION_KEY (32 bytes); absent: a key generated into `<dataDir>/encryption.key`. */
  webhookEncryptionKey: SecretKey | undefined;
  /** WEBHOOK_TIMEOUT: seconds a webhook delivery may take (GitLab's webhook_timeout, 10 s). */
  webhookTimeoutSeconds: number;
  /** WEBHOOK_HEADER_PREFIX: "X-Service-" (the spec's delivery headers) or "X-Gitlab-" (receivers built for GitLab). */
  webhookHeaderPrefix: "X-Service-" | "X-Gitlab-";
  /** WEBHOOK_WORKER: the server runs a delivery worker itself (off when workers run apart: `npm run worker`). */
  webhookWorker: boolean;
  /** WEBHOOK_POLL_INTERVAL: milliseconds between a worker's looks at the outbox when no commit wakes it. */
  webhookPollIntervalMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries one worker has in hand at most. */
  webhookConcurrency: number;
  /** WEBHOOK_HOST_CONCURRENCY: deliveries one worker has in flight to one host (scheme, name, port) at most. */
  webhookHostConcurrency: number;
  /** WEBHOOK_SIGNING_GRACE_HOURS: how long a rotated signing secret still signs beside the new one. */
  webhookSigningGraceHours: number;
  /** WEB_CONCURRENCY (default: the cores): server processes sharing the port (node:cluster); 1 serves from the starting process itself. */
  webConcurrency: number;
  /** SSH_HOST: the host of `ssh_url_to_repo` (GitLab's gitlab_shell.ssh_host); default PUBLIC_URL's host name, without its port. */
  sshHost: string;
  /** SSH_PORT: GitLab's gitlab_shell.ssh_port; other than 22, SSH URLs take the `ssh://git@host:port/` form. */
  sshPort: number;
  /** FORGELINE_REVISION: the commit the server was built from, for /version (else the REVISION file or the git checkout). */
  revision: string | undefined;
  /** REPOSITORIES_DIR: where the projects' bare git repositories live (default `<dataDir>/repositories`). */
  repositoriesDir: string;
  /** MAX_PUSH_SIZE_MB: the largest pack a push may send (GitLab's "Maximum push size"); 0: no limit. */
  maxPushSizeMb: number;
  /** LOG_LEVEL (default info) and LOG_FORMAT (json, or pretty for a terminal) of every process's log. */
  logging: LogSettings;
  /** SHUTDOWN_TIMEOUT: seconds a stopping process lets requests in flight and deliveries in hand finish. */
  shutdownTimeoutMs: number;
  /** MONITORING_ALLOW_CIDRS: who may read /-/metrics besides loopback (GitLab's monitoring IP allowlist). */
  monitoringAllowCidrs: readonly string[];
  /** WORKER_METRICS_PORT: where `npm run worker` serves its own /-/metrics (unset: it serves none). */
  workerMetricsPort: number | undefined;
}

/** Key bytes that never print: `String()`, JSON and `util.inspect` show "[REDACTED]". */
export class SecretKey {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  bytes(): Buffer {
    return this.#bytes;
  }
  toString() {
    return "[REDACTED]";
  }
  toJSON() {
    return "[REDACTED]";
  }
  [Symbol.for("nodejs.util.inspect.custom")]() {
    return "SecretKey [REDACTED]";
  }
}

export class ConfigError extends Error {}

export const DEFAULT_DATA_DIR = "./data";

export function defaultDatabaseUrl(dataDir: string): string {
  return `file:${path.join(dataDir, "forgeline.db")}`;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** DATABASE_URL names a PostgreSQL database (else a SQLite file). */
export const isPostgresqlUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

function databaseUrl(env: NodeJS.ProcessEnv, dataDir: string): string {
  const url = env.DATABASE_URL || defaultDatabaseUrl(dataDir);
  if (isPostgresqlUrl(url)) {
    // a key generated into one server's data folder would leave the hook secrets unreadable on the others
    if (!env.WEBHOOK_ENCRYPTION_KEY?.trim()) {
      throw new ConfigError("WEBHOOK_ENCRYPTION_KEY must be set when DATABASE_URL is a PostgreSQL URL (every server and worker needs the same key)");
    }
    return url;
  }
  if (!url.startsWith("file:")) {
    throw new ConfigError(`DATABASE_URL must be a SQLite file URL (file:path) or a PostgreSQL URL (postgresql://...), got "${redacted(url)}"`);
  }
  return `file:${path.resolve(url.slice("file:".length))}`;
}

/** A URL without its password, for messages. */
function redacted(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}

function publicUrl(env: NodeJS.ProcessEnv, port: number): string {
  const raw = env.PUBLIC_URL || `http://localhost:${port}`;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

/** A host name or IP address (IPv6 without brackets), as an SSH URL names the server. */
function sshHost(env: NodeJS.ProcessEnv, publicUrl: string): string {
  const raw = env.SSH_HOST || new URL(publicUrl).hostname;
  const host = raw.replace(/^\[(.*)\]$/, "$1");
  if (!/^[A-Za-z0-9._:-]+$/.test(host)) throw new ConfigError(`SSH_HOST must be a host name or an IP address, got "${raw}"`);
  return host;
}

function revision(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.FORGELINE_REVISION?.trim();
  if (!raw) return undefined;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) throw new ConfigError(`FORGELINE_REVISION must be a commit id (letters, digits, '.', '_', '-'), got "${raw}"`);
  return raw;
}

function rootToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.INITIAL_ROOT_TOKEN;
  if (token === undefined || token === "") return undefined;
  if (!/^[A-Za-z0-9_\-.]{20,}$/.test(token)) {
    throw new ConfigError("INITIAL_ROOT_TOKEN must be at least 20 characters of letters, digits, '_', '-' or '.'");
  }
  return token;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** 32 bytes as 64 hex digits or base64; the value itself is never echoed in the error. */
function encryptionKey(env: NodeJS.ProcessEnv): SecretKey | undefined {
  const raw = env.WEBHOOK_ENCRYPTION_KEY?.trim();
  if (!raw) return undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return new SecretKey(Buffer.from(raw, "hex"));
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(raw)) {
    const bytes = Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === 32) return new SecretKey(bytes);
  }
  throw new ConfigError("WEBHOOK_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or as base64");
}

function headerPrefix(env: NodeJS.ProcessEnv): Config["webhookHeaderPrefix"] {
  const raw = env.WEBHOOK_HEADER_PREFIX || "X-Service-";
  if (raw === "X-Service-" || raw === "X-Gitlab-") return raw;
  throw new ConfigError(`WEBHOOK_HEADER_PREFIX must be X-Service- or X-Gitlab-, got "${raw}"`);
}

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.LOG_LEVEL || "info";
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
}

function logFormat(env: NodeJS.ProcessEnv): LogFormat {
  const raw = env.LOG_FORMAT || "json";
  if (raw === "json" || raw === "pretty") return raw;
  throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
}

/** Comma-separated addresses or CIDR ranges (IPv4 or IPv6). */
function allowCidrs(env: NodeJS.ProcessEnv): string[] {
  const entries = (env.MONITORING_ALLOW_CIDRS ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (!isCidrOrAddress(entry)) throw new ConfigError(`MONITORING_ALLOW_CIDRS must list IP addresses or CIDR ranges, got "${entry}"`);
  }
  return entries;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, "PORT", 8080, 0, 65535);
  const dataDir = env.DATA_DIR || DEFAULT_DATA_DIR;
  const baseUrl = publicUrl(env, port);
  return {
    host: env.HOST || "0.0.0.0",
    port,
    publicUrl: baseUrl,
    databaseUrl: databaseUrl(env, dataDir),
    dataDir,
    uploadsDir: path.resolve(env.UPLOADS_DIR || path.join(dataDir, "uploads")),
    initialRootToken: rootToken(env),
    maxQueryStringLength: integer(env, "MAX_QUERY_STRING_LENGTH", 16384, 256, 1048576),
    maxBodyBytes: integer(env, "MAX_BODY_BYTES", 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    version: "17.1.0",
    allowLocalWebhooks: boolean(env, "ALLOW_LOCAL_WEBHOOKS", false),
    webhookEncryptionKey: encryptionKey(env),
    databasePool: {
      size: integer(env, "DATABASE_POOL_SIZE", Math.max(4, 2 * availableParallelism()), 1, 1000),
      statementTimeoutMs: integer(env, "DATABASE_STATEMENT_TIMEOUT", 15, 1, 86_400) * 1000,
      idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    webhookTimeoutSeconds: integer(env, "WEBHOOK_TIMEOUT", 10, 1, 600),
    webhookHeaderPrefix: headerPrefix(env),
    webhookWorker: boolean(env, "WEBHOOK_WORKER", true),
    webhookPollIntervalMs: integer(env, "WEBHOOK_POLL_INTERVAL", 1000, 10, 3_600_000),
    webhookConcurrency: integer(env, "WEBHOOK_CONCURRENCY", 64, 1, 1000),
    webhookHostConcurrency: integer(env, "WEBHOOK_HOST_CONCURRENCY", 16, 1, 1000),
    webhookSigningGraceHours: integer(env, "WEBHOOK_SIGNING_GRACE_HOURS", 24, 0, 720),
    webConcurrency: integer(env, "WEB_CONCURRENCY", Math.min(availableParallelism(), 64), 1, 64),
    sshHost: sshHost(env, baseUrl),
    sshPort: integer(env, "SSH_PORT", 22, 1, 65535),
    revision: revision(env),
    repositoriesDir: path.resolve(env.REPOSITORIES_DIR || path.join(dataDir, "repositories")),
    maxPushSizeMb: integer(env, "MAX_PUSH_SIZE_MB", 1024, 0, 1024 * 1024),
    logging: { level: logLevel(env), format: logFormat(env) },
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT", 30, 0, 3600) * 1000,
    monitoringAllowCidrs: allowCidrs(env),
    workerMetricsPort: env.WORKER_METRICS_PORT ? integer(env, "WORKER_METRICS_PORT", 0, 0, 65535) : undefined,
  };
}

/**
 * A transaction idle this long holds its locks for nothing (a process stopped in the middle):
 * PostgreSQL ends its session. Interactive transactions are cut after 15 s by Prisma already.
 */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/** For the entry points (server, worker): a bad setting prints `Invalid setting: ...` and exits with 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Invalid setting: ${error.message}`);
    process.exit(2);
  }
}
