// Rows to and from JSON in the database's own column names, for SQL functions that take or
// return whole rows as jsonb (src/db/sql/order_place.sql). Column names and types come from the
// Drizzle schema, so a new column needs no change here; the mapping is computed once per table
// (this runs for every order).
import { getTableColumns, type InferInsertModel, type InferSelectModel, type Table } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';

const casing = new CasingCache('snake_case');
type Field = { key: string; name: string; timestamp: boolean };
const fieldsOf = new WeakMap<Table, Field[]>();

function fields(table: Table): Field[] {
  let f = fieldsOf.get(table);
  if (!f) {
    f = Object.entries(getTableColumns(table)).map(([key, col]) => ({
      key,
      name: casing.getColumnCasing(col),
      timestamp: col.columnType === 'PgTimestamp',
    }));
    fieldsOf.set(table, f);
  }
  return f;
}

/** A row as jsonb input: snake_case keys, timestamps as ISO strings; absent keys are left out. */
export function rowToJson<T extends Table>(table: T, values: Partial<InferInsertModel<T>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const v = values as Record<string, unknown>;
  for (const f of fields(table)) {
    if (!(f.key in v)) continue;
    const x = v[f.key];
    out[f.name] = x instanceof Date ? x.toISOString() : x;
  }
  return out;
}

/** A row from to_jsonb(row): the same values Drizzle's select would give (timestamps as Dates). */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  const out: Record<string, unknown> = {};
  for (const f of fields(table)) {
    const x = json[f.name];
    out[f.key] = x === undefined || x === null ? null : f.timestamp ? new Date(x as string) : x;
  }
  return out as InferSelectModel<T>;
}
