// Record ids as the database holds them: INTEGER columns, 32-bit signed on PostgreSQL (SQLite holds
// the same values). A number beyond that range names no record: ActiveRecord's lookup by an
// out-of-range id finds nothing, so GitLab answers that lookup's own 404 (never a database error).

export const MAX_RECORD_ID = 2_147_483_647;
const MIN_RECORD_ID = -2_147_483_648;

/** An id no record has (ids count from 1): what an out-of-range number is looked up as. */
export const NO_RECORD_ID = -1;

/** A number the id columns can hold (negative ones fit; they just match nothing). */
export const fitsIdColumn = (n: number) => Number.isInteger(n) && n >= MIN_RECORD_ID && n <= MAX_RECORD_ID;

/** A numeric key (`"42"`) as the id to look up; past the columns' range, NO_RECORD_ID. */
export function recordId(key: string | number): number {
  const id = Number(key);
  return fitsIdColumn(id) ? id : NO_RECORD_ID;
}
