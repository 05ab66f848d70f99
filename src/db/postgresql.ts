// The PostgreSQL driver adapter (@prisma/adapter-pg on a pg.Pool), with the server's pool settings
// and each SQL text prepared once per connection.
import cluster from "node:cluster";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

export { isPostgresqlUrl } from "../config.js";

const NAME_OID = 19;
const TEXT_OID = 25;

/** The server's and the worker's connections (the Prisma CLI's keep pg's defaults). */
export interface PoolSettings {
  /** connections per process */
  size: number;
  /** milliseconds a statement may run (PostgreSQL's statement_timeout) */
  statementTimeoutMs: number;
  /** milliseconds a transaction may sit idle holding its locks (idle_in_transaction_session_timeout) */
  idleInTransactionTimeoutMs: number;
}

/**
 * prisma/orm#27403: the adapter does not know PostgreSQL's `name` type (oid 19), which the
 * catalog queries of `prisma migrate` return, and fails on it. Such fields are text; this pool
 * reports them as such.
 */
class CatalogNamesAsText extends pg.Pool {
  override query(...args: unknown[]): any {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (!(result instanceof Promise)) return result;
    return result.then((answer: pg.QueryResult) => {
      for (const field of answer?.fields ?? []) if (field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
      return answer;
    });
  }
}

/** Distinct SQL texts one connection keeps prepared (`IN ($1, $2, ...)` lists make a new text per length). */
const PREPARED_PER_CONNECTION = 1_000;

/**
 * A connection that sends each SQL text with parameters as a named prepared statement, parsed
 * and planned by PostgreSQL once per connection instead of on every call (the adapter sends
 * every statement unnamed). Texts past the cap go unnamed.
 */
class PreparingClient extends pg.Client {
  readonly #names = new Map<string, string>();
  #named = 0;

  override query(config: any, values?: any, callback?: any): any {
    const eligible = config && typeof config === "object" && typeof config.text === "string" && !config.name && config.values?.length;
    const name = eligible ? this.#nameOf(config.text) : undefined;
    if (!name) return super.query(config, values, callback);
    // pg.Pool passes a callback, a client checked out for a transaction does not
    const done: ((error: Error | null, result?: unknown) => void) | undefined = typeof values === "function" ? values : callback;
    const args = typeof values === "function" ? undefined : values;
    const answer = (super.query({ ...config, name }, args) as Promise<unknown>).catch((error: Error) => {
      if (!STALE_PLAN.test(error?.message)) throw error;
      this.#forget(config.text, name);
      return super.query(config, args) as Promise<unknown>;
    });
    if (!done) return answer;
    answer.then((result) => done(null, result), (error: Error) => done(error));
    return undefined;
  }

  #nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < PREPARED_PER_CONNECTION) this.#names.set(text, (name = `s${this.#named++}`));
    return name;
  }

  /**
   * A table's columns changed under a prepared `SELECT *` (a migration applied by a newer server
   * during a rolling upgrade): the statement is dropped and prepared again on its next use.
   */
  #forget(text: string, name: string): void {
    this.#names.delete(text);
    delete (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
    void super.query(`DEALLOCATE ${name}`).catch(() => undefined);
  }
}

/** PostgreSQL refuses a prepared statement whose result columns changed since it was prepared. */
const STALE_PLAN = /cached plan must not change result type/;

/** What `pg_stat_activity` shows for this process's connections. */
function applicationName(): string {
  const role = cluster.isWorker ? `web ${cluster.worker!.id}` : path.basename(process.argv[1] ?? "node").replace(/\.[jt]s$/, "");
  return `forgeline ${role} (pid ${process.pid})`.slice(0, 63);
}

export function postgresqlAdapterFactory(databaseUrl: string, settings?: PoolSettings): PrismaPg & { pool: pg.Pool } {
  const pool = new CatalogNamesAsText({
    connectionString: databaseUrl,
    ...(settings && {
      Client: PreparingClient,
      max: settings.size,
      statement_timeout: settings.statementTimeoutMs,
      idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
      application_name: applicationName(),
    }),
  });
  const factory = Object.assign(new PrismaPg(pool), { pool });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    // The adapter runs a migration script by splitting it at every ";", which breaks the bodies of
    // trigger functions; PostgreSQL runs a script of several statements sent at once, and in one
    // implicit transaction at that.
    adapter.executeScript = async (script: string) => {
      await pool.query(script);
    };
    return adapter;
  };
  return factory;
}
