// Rows to and from JSON in the database's own column names, for SQL functions that take or
// return whole rows as jsonb (order_place, migration 0006). Column names and types come from the
// Drizzle schema, so a new column needs no change here.
import { getTableColumns, type InferInsertModel, type InferSelectModel, type Table } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';

const casing = new CasingCache('snake_case');

/** A row as jsonb input: snake_case keys, timestamps as ISO strings; absent keys are left out. */
export function rowToJson<T extends Table>(table: T, values: Partial<InferInsertModel<T>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    if (!(key in values)) continue;
    const v = (values as Record<string, unknown>)[key];
    out[casing.getColumnCasing(col)] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/** A row from to_jsonb(row): the same values Drizzle's select would give (timestamps as Dates). */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    const v = json[casing.getColumnCasing(col)];
    out[key] = v === undefined || v === null ? null : col.columnType === 'PgTimestamp' ? new Date(v as string) : v;
  }
  return out as InferSelectModel<T>;
}
