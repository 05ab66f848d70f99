// The Studio server's side of @prisma/studio-core: "executors" that run the SQL the Studio page
// builds, on our own drivers (better-sqlite3, pg). studio-core ships executors for node:sqlite
// (Node 22.5+; we run on 20) and postgres.js (not a dependency here); these two do the same with
// the drivers the server already uses, and return rows as those executors do.
import type Database from "better-sqlite3";
import type pg from "pg";
import type { Executor, Query } from "@prisma/studio-core/data";

type Either<T> = [Error] | [null, T];
type Rows = Record<string, unknown>[];

export interface StudioExecutor extends Executor {
  /** runs two queries one after the other (the BFF's "sequence" procedure) */
  executeSequence(sequence: readonly [Query<unknown>, Query<unknown>], options?: { schema?: string }): Promise<[[Error]] | [[null, Rows], Either<Rows>]>;
  close(): Promise<void>;
}

/** Studio asks some columns back as JSON text; they are parsed here, as studio-core's executors do. */
function applyTransformations(rows: Rows, transformations: Query<unknown>["transformations"]): Rows {
  const columns = Object.entries(transformations ?? {}).filter(([, kind]) => kind === "json-parse").map(([column]) => column);
  if (columns.length === 0) return rows;
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (typeof value !== "string") continue;
      try {
        row[column] = JSON.parse(value);
      } catch {
        // left as text
      }
    }
  }
  return rows;
}

const failure = (error: unknown): [Error] => [error instanceof Error ? error : new Error(String(error))];

function withSequence(executor: Omit<StudioExecutor, "executeSequence">): StudioExecutor {
  return {
    ...executor,
    async executeSequence([first, second], options) {
      const [error0, rows0] = await executor.execute(first, options);
      if (error0) return [[error0]];
      const [error1, rows1] = await executor.execute(second, options);
      return [[null, rows0 as Rows], error1 ? [error1] : [null, rows1 as Rows]];
    },
  };
}

// --- SQLite (better-sqlite3) ---

/** better-sqlite3 binds numbers, strings, bigints, buffers and null only. */
function sqliteParameter(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value !== null && typeof value === "object" && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value ?? null;
}

export function sqliteExecutor(database: Database.Database): StudioExecutor {
  const run = (query: Query<unknown>): Rows => {
    const statement = database.prepare(query.sql);
    const parameters = query.parameters.map(sqliteParameter);
    // a statement without a result (an UPDATE without RETURNING typed into the SQL editor) answers no rows
    if (!statement.reader) {
      statement.run(...parameters);
      return [];
    }
    return applyTransformations(statement.all(...parameters) as Rows, query.transformations);
  };
  return withSequence({
    async execute(query) {
      try {
        return [null, run(query)] as never;
      } catch (error) {
        return failure(error);
      }
    },
    async executeTransaction(queries) {
      try {
        return [null, database.transaction(() => queries.map(run)).immediate()] as never;
      } catch (error) {
        return failure(error);
      }
    },
    async close() {
      database.close();
    },
  });
}

// --- PostgreSQL (pg) ---

const DATE_OIDS = new Set([1082, 1182]); // date, date[]
const TIMESTAMP_OIDS = new Set([1114, 1115]); // timestamp without time zone (Prisma's DateTime), and its array

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * pg reads `date` and `timestamp` (without time zone) as local-time Dates; Studio wants them as the
 * stored text: "2026-01-02" and the wall-clock time as UTC ISO (what its postgres.js executor sends).
 */
function temporal(value: unknown, kind: "date" | "timestamp"): unknown {
  if (Array.isArray(value)) return value.map((entry) => temporal(entry, kind));
  if (!(value instanceof Date)) return value;
  if (kind === "date") return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  return new Date(
    Date.UTC(value.getFullYear(), value.getMonth(), value.getDate(), value.getHours(), value.getMinutes(), value.getSeconds(), value.getMilliseconds()),
  ).toISOString();
}

function pgRows(result: pg.QueryResult | pg.QueryResult[], query: Query<unknown>): Rows {
  // several statements in one text (the SQL editor): the last one's rows
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  const rows = (last?.rows ?? []) as Rows;
  for (const field of last?.fields ?? []) {
    const kind = DATE_OIDS.has(field.dataTypeID) ? "date" : TIMESTAMP_OIDS.has(field.dataTypeID) ? "timestamp" : undefined;
    if (kind) for (const row of rows) row[field.name] = temporal(row[field.name], kind);
  }
  return applyTransformations(rows, query.transformations);
}

export function postgresqlExecutor(pool: pg.Pool): StudioExecutor {
  const run = async (client: pg.Pool | pg.PoolClient, query: Query<unknown>) =>
    pgRows(await client.query(query.sql, query.parameters.length > 0 ? [...query.parameters] : undefined), query);

  /** one connection, in a transaction; `schema` (Studio's current schema) first on the search path */
  const inTransaction = async <T>(schema: string | undefined, body: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      if (schema) await client.query("SELECT set_config('search_path', quote_ident($1), true)", [schema]);
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  return withSequence({
    async execute(query, options) {
      try {
        const rows = options?.schema ? await inTransaction(options.schema, (client) => run(client, query)) : await run(pool, query);
        return [null, rows] as never;
      } catch (error) {
        return failure(error);
      }
    },
    async executeTransaction(queries, options) {
      try {
        return [
          null,
          await inTransaction(options?.schema, async (client) => {
            const results: Rows[] = [];
            for (const query of queries) results.push(await run(client, query));
            return results;
          }),
        ] as never;
      } catch (error) {
        return failure(error);
      }
    },
    async close() {
      await pool.end();
    },
  });
}
