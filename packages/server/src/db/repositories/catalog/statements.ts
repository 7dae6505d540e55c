// The page-query compiler's base: statements rendered by Drizzle's dialect and sent straight to
// the pool as named prepared statements (docs/adr/0022-catalogue-read-path.md). PostgreSQL parses
// and plans each once per connection; Node skips Drizzle's select builder and its per-value row
// mapping, which were most of the CPU of an uncached list.
//
// Rows come back with the table's property names as column aliases, with the values
// node-postgres decodes (jsonb parsed, timestamptz as Date, dates as 'YYYY-MM-DD', int8 as
// number: db/client.ts), i.e. the same values Drizzle's select() gives.
import { fillPlaceholders, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DbOrTx } from '../../client.ts';

export const dialect = new PgDialect({ casing: 'snake_case' });

const selections = new WeakMap<PgTable, SQL>();

/**
 * `"table"."col" as "propertyName", …` for every column of `table`, rendered to text once per
 * table: rendering its column chunks (Drizzle's is() checks and casing per column) on every
 * request was the largest part of Drizzle left in an uncached list's profile.
 */
export function columnsOf(table: PgTable): SQL {
  let s = selections.get(table);
  if (!s) {
    const cols = Object.entries(getTableColumns(table)).map(([key, col]) => sql`${col} as ${sql.identifier(key)}`);
    s = sql.raw(dialect.sqlToQuery(sql.join(cols, sql`, `)).sql);
    selections.set(table, s);
  }
  return s;
}

/**
 * A fixed part of a statement (column names and quoting, no parameters), rendered to text on
 * first use and reused: rendering it with Drizzle on every request was most of the Drizzle work
 * left in the profiles of the list paths.
 */
export function renderOnce(build: () => SQL): () => SQL {
  let text: SQL | undefined;
  return () => {
    if (!text) {
      const q = dialect.sqlToQuery(build());
      if (q.params.length > 0) throw new Error('a fragment rendered once has no parameters');
      text = sql.raw(q.sql);
    }
    return text;
  };
}

const prefixed = new WeakMap<PgTable, Map<string, { sql: SQL; keys: Array<[string, string]> }>>();

/**
 * Like `columnsOf`, with each alias prefixed (`"events"."title" as "e.title"`), for a statement
 * that selects several tables whose property names overlap (id, active, …); `pick` takes one
 * table's record back out of such a row. `omit`: properties not read (each column read costs its
 * parsing, timestamps most). Rendered once per table and prefix.
 */
export function prefixedColumnsOf(table: PgTable, prefix: string, omit: readonly string[] = []): { sql: SQL; keys: Array<[string, string]> } {
  let byPrefix = prefixed.get(table);
  if (!byPrefix) prefixed.set(table, (byPrefix = new Map()));
  const key = `${prefix}|${omit.join(',')}`;
  let p = byPrefix.get(key);
  if (!p) {
    const entries = Object.entries(getTableColumns(table)).filter(([k]) => !omit.includes(k));
    const cols = entries.map(([key, col]) => sql`${col} as ${sql.identifier(prefix + key)}`);
    p = { sql: sql.raw(dialect.sqlToQuery(sql.join(cols, sql`, `)).sql), keys: entries.map(([key]) => [prefix + key, key]) };
    byPrefix.set(key, p);
  }
  return p;
}

/** One table's record from a row selected with `prefixedColumnsOf`. */
export function pick<R>(row: Record<string, unknown>, keys: Array<[string, string]>): R {
  const out: Record<string, unknown> = {};
  for (const [alias, key] of keys) out[key] = row[alias];
  return out as R;
}

// Statement names by SQL text. The texts are few (one per combination of filters present and
// caller kind), but a bound keeps a pathological mix from preparing without end on every
// connection: past it, statements run unnamed.
export const MAX_NAMED = 500;
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `atrium_catalog_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A condition's text and values as one string: two conditions with the same key select the same
 * rows. For memos of what a condition selects (dates.ts).
 */
export function keyOfSql(q: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(q);
  return `${text}|${JSON.stringify(params)}`;
}

/** The pool behind a handle: reads outside a transaction go to it directly. */
export function poolOf(db: DbOrTx): pg.Pool | undefined {
  return (db as { $client?: pg.Pool }).$client;
}

/** Runs `query` (one statement) as a named prepared statement and returns its rows. */
export async function rowsOf<R>(db: DbOrTx, query: SQL): Promise<R[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const pool = poolOf(db);
  if (!pool) return (await db.execute(query)).rows as R[];
  return run<R>(pool, text, params);
}

export async function run<R>(pool: pg.Pool, text: string, params: unknown[]): Promise<R[]> {
  const name = nameOf(text);
  const r = await pool.query(name ? { name, text, values: params } : { text, values: params });
  return r.rows as R[];
}

/**
 * A statement whose text never changes: `build` names its values (`v('ids')`), it is rendered on
 * first use with named placeholders, and each call fills in its own values. On a handle without
 * a pool (a transaction) it is rendered per call with the values as ordinary parameters.
 */
export function fixedStatement<R>(build: (v: (name: string) => SQL) => SQL): (db: DbOrTx, values: Record<string, unknown>) => Promise<R[]> {
  let kept: { text: string; params: unknown[] } | undefined;
  return (db, values) => {
    const pool = poolOf(db);
    if (!pool) return rowsOf<R>(db, build((name) => sql`${sql.param(values[name])}`));
    if (!kept) {
      const q = dialect.sqlToQuery(build((name) => sql`${sql.placeholder(name)}`));
      kept = { text: q.sql, params: q.params };
    }
    return run<R>(pool, kept.text, fillPlaceholders(kept.params, values));
  };
}

