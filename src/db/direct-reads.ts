// Raw reads sent straight to the driver adapter, without Prisma's client in between. The client
// runs its query compiler and result mapper on every `$queryRaw` too: 130–500 µs of CPU per call
// here, more than a small indexed read costs the database. The hot reads (hot-reads.ts) go this
// way when they run outside a transaction; inside one they go through the transaction's client,
// whose connection they must use. Rows come back as `$queryRaw` returns them (dates as Date, 64-bit
// integers as bigint, SQLite's 0/1 booleans as booleans), checked by test/unit/direct-reads.test.ts.
// The adapter is the one Prisma uses, so every statement is counted as the others are (adapter.ts).
import { ColumnTypeEnum, type ArgType, type ColumnType, type SqlQueryable } from "@prisma/driver-adapter-utils";
import type { Prisma } from "../generated/prisma/client.js";

/** A client's connected adapter and its placeholders (`?` on SQLite, `$1` on PostgreSQL). */
interface DirectReader {
  adapter: () => Promise<SqlQueryable>;
  placeholders: "question-marks" | "numbered";
}

const readers = new WeakMap<object, DirectReader>();

/** Sends `client`'s raw reads outside transactions to `adapter` (the one Prisma connected). */
export function readDirectly(client: object, reader: DirectReader): void {
  readers.set(client, reader);
}

/** `db.$queryRaw(query)`, straight to the adapter when `db` is a client rather than a transaction. */
export async function queryRows<T>(db: { $queryRaw<R>(query: Prisma.Sql): Promise<R> }, query: Prisma.Sql): Promise<T[]> {
  const reader = readers.get(db);
  if (!reader) return db.$queryRaw<T[]>(query);
  const adapter = await reader.adapter();
  const args = query.values;
  const result = await adapter.queryRaw({
    sql: reader.placeholders === "numbered" ? query.text : query.sql,
    args,
    argTypes: args.map(argTypeOf),
  });
  const { columnNames, columnTypes } = result;
  return result.rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) record[columnNames[i]!] = valueOf(row[i], columnTypes[i]!, columnNames[i]!);
    return record as T;
  });
}

function argTypeOf(value: unknown): ArgType {
  const scalarType =
    typeof value === "number" ? (Number.isInteger(value) ? "int" : "float")
    : typeof value === "bigint" ? "bigint"
    : typeof value === "boolean" ? "boolean"
    : typeof value === "string" ? "string"
    : value instanceof Date ? "datetime"
    : "unknown";
  return { scalarType, arity: Array.isArray(value) ? "list" : "scalar" };
}

/** A value as `$queryRaw` gives it; types no hot read selects are refused rather than guessed. */
function valueOf(value: unknown, type: ColumnType, column: string): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case ColumnTypeEnum.DateTime:
    case ColumnTypeEnum.Date:
      return new Date(typeof value === "string" ? withTimeZone(value) : (value as number));
    case ColumnTypeEnum.Int64:
      return BigInt(value as string | number | bigint);
    case ColumnTypeEnum.Boolean:
      // SQLite's come as integers, as text (safe integers)
      return typeof value === "boolean" ? value : Number(value) !== 0;
    case ColumnTypeEnum.Int32:
      return typeof value === "string" ? Number(value) : value; // SQLite's integers come as text (safe integers)
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
    case ColumnTypeEnum.UnknownNumber:
    case ColumnTypeEnum.Text:
    case ColumnTypeEnum.Character:
    case ColumnTypeEnum.Enum:
    case ColumnTypeEnum.Uuid:
      return value;
    default:
      throw new Error(`direct read: column ${column} has a type (${type}) the direct path does not convert`);
  }
}

/** A timestamp without a zone is UTC (Prisma stores UTC); `YYYY-MM-DD hh:mm:ss` gets its `T`. */
function withTimeZone(text: string): string {
  const iso = text.replace(" ", "T");
  return /(Z|[+-]\d{2}(:?\d{2})?)$/.test(iso) || !iso.includes("T") ? iso : `${iso}Z`;
}
