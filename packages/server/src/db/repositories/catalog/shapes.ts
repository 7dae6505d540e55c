// Catalogue statements rendered once per shape (docs/adr/0022-catalogue-read-path.md).
// Rendering a page's statement with Drizzle on every request (its WHERE from the shared rules,
// the page around it) was the largest part of an uncached list's CPU. A list's WHERE is built
// with its values bound by name (`bound`: Drizzle placeholders) under a shape key: everything the
// statement's text depends on (the caller's kind and scope, which filters are present). The text
// is rendered on the first request of a shape and reused; each request fills in its own values
// (Drizzle's fillPlaceholders).
//
// A wrong shape key would reuse another shape's text, so: a statement whose parameters are not
// all named placeholders is never kept (a raw value would be reused for every later request),
// and under the tests (ATRIUM_CHECK_STATEMENTS=1, test/run.ts) every request renders its
// statement afresh as well and fails if text or parameters differ from the kept ones.
import { fillPlaceholders, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../client.ts';
import { dialect, MAX_NAMED, poolOf, rowsOf, run } from './statements.ts';

let binding: Record<string, unknown> | undefined;
let bindCount = 0;

/**
 * A value of a catalogue statement: inside `shaped`, a named placeholder whose value is kept
 * with the shape's values; elsewhere an ordinary parameter, as before.
 */
export function bound(value: unknown): SQL {
  if (!binding) return sql`${sql.param(value)}`;
  const name = `v${++bindCount}`;
  binding[name] = value;
  return sql`${sql.placeholder(name)}`;
}

/**
 * Part of a shape key: for each filter, whether it is given ('1': a value or a non-empty list) or
 * not ('0'). A filter's text is the same whatever its value (bound by name), so this is all a
 * filter adds to the key; a filter whose text depends on its value says so in the key itself.
 */
export function given(...filters: unknown[]): string {
  let s = '';
  for (const f of filters) s += f === undefined || f === null || (Array.isArray(f) && f.length === 0) ? '0' : '1';
  return s;
}

/** A statement's shape (see above): its key and this request's values of its placeholders. */
export interface Shape {
  key: string;
  values: Record<string, unknown>;
}

/**
 * Builds a page's WHERE with its values bound by name, for the shape `key`. Only reads that go
 * straight to the pool are shaped (a transaction's handle renders as before): `shape` is then
 * undefined and the WHERE has ordinary parameters.
 */
export function shaped(db: DbOrTx, key: string, build: () => SQL | undefined): { where: SQL | undefined; shape?: Shape } {
  if (!poolOf(db)) return { where: build() };
  const outer = binding;
  const outerCount = bindCount;
  const values: Record<string, unknown> = {};
  binding = values;
  bindCount = 0;
  try {
    return { where: build(), shape: { key, values } };
  } finally {
    binding = outer;
    bindCount = outerCount;
  }
}

/**
 * `col = any($1::int[])`: like inArray, but one parameter whatever the number of ids, so the
 * statement's text (and its prepared name) does not change with the length of an ids filter.
 */
export function inIds(col: AnyPgColumn, ids: readonly number[]): SQL {
  return sql`${col} = any(${bound(ids)}::int[])`;
}

type Kept = { text: string; params: unknown[] } | null;
const kept = new Map<string, Kept>();
const CHECK = process.env.ATRIUM_CHECK_STATEMENTS === '1';

/**
 * Runs the statement `build` gives for `key` (a shape's key and the statement's kind): its text
 * rendered once, the values filled in per request. Without a key (or a pool), as `rowsOf`.
 */
export async function rowsOfShape<R>(db: DbOrTx, key: string | undefined, values: Record<string, unknown> | undefined, build: () => SQL): Promise<R[]> {
  const pool = poolOf(db);
  if (key === undefined || values === undefined || !pool) return rowsOf<R>(db, build());
  const k = kept.get(key);
  if (k === undefined || k === null) {
    const q = dialect.sqlToQuery(build());
    const keep = q.params.every((p) => is(p, Placeholder));
    if (!keep && CHECK) throw new Error(`catalogue statement ${key} has a parameter not bound by name`);
    if (k === undefined && kept.size < MAX_NAMED) kept.set(key, keep ? { text: q.sql, params: q.params } : null);
    // A shape's first request, or a statement not kept (a raw value in it): this request's own
    // rendering, its placeholders filled in.
    return run<R>(pool, q.sql, fillPlaceholders(q.params, values));
  }
  if (CHECK) {
    const q = dialect.sqlToQuery(build());
    const fresh = JSON.stringify(fillPlaceholders(q.params, values));
    if (q.sql !== k.text || fresh !== JSON.stringify(fillPlaceholders(k.params, values))) {
      throw new Error(`catalogue statement ${key}: its shape key does not name everything its text depends on`);
    }
  }
  return run<R>(pool, k.text, fillPlaceholders(k.params, values));
}
