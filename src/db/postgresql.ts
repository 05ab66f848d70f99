// The PostgreSQL driver adapter (@prisma/adapter-pg on a pg.Pool).
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

export { isPostgresqlUrl } from "../config.js";

const NAME_OID = 19;
const TEXT_OID = 25;

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

export function postgresqlAdapterFactory(databaseUrl: string, poolSize?: number): PrismaPg & { pool: pg.Pool } {
  const pool = new CatalogNamesAsText({ connectionString: databaseUrl, ...(poolSize ? { max: poolSize } : {}) });
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
