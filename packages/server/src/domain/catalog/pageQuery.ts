// One round trip for a page of a catalogue list (issue #19, docs/adr/0022-catalogue-read-path.md):
// the rows, the total count (a window count over the same WHERE) and the related ids of each row
// (correlated sub-selects) in ONE statement, sent as a named prepared statement straight to the
// pool. PostgreSQL parses and plans it once per connection; Node skips Drizzle's select builder
// and its per-value row mapping, which were most of the CPU of an uncached list (profile in
// bench/README.md).
//
// The WHERE is still written with Drizzle's `sql` and the shared rules (visibleSql, inScopeSql,
// titleMatches): this module only renders it. Rows come back with the table's property names as
// column aliases, with the values node-postgres decodes (jsonb parsed, timestamptz as Date, dates
// as 'YYYY-MM-DD', int8 as number: db/client.ts), i.e. the same values Drizzle's select() gives.
import { fillPlaceholders, getTableColumns, getTableName, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DbOrTx } from '../../db/client.ts';
import { instance } from '../../db/schema/index.ts';
import type { MasterDataMemo } from '../context.ts';

const dialect = new PgDialect({ casing: 'snake_case' });

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
 * parsing, a timestamp ~0.3-1 µs). Rendered once per table and prefix.
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

/**
 * `col = any($1::int[])`: like inArray, but one parameter whatever the number of ids, so the
 * statement's text (and its prepared name) does not change with the length of an ids filter.
 */
export function inIds(col: AnyPgColumn, ids: readonly number[]): SQL {
  return sql`${col} = any(${bound(ids)}::int[])`;
}

// Statement names by SQL text. The texts are few (one per combination of filters present and
// caller kind), but a bound keeps a pathological mix from preparing without end on every
// connection: past it, statements run unnamed.
const MAX_NAMED = 500;
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
 * rows. For memos of what a condition selects (datesPage.ts).
 */
export function keyOfSql(q: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(q);
  return `${text}|${JSON.stringify(params)}`;
}

/** The pool behind a handle: reads outside a transaction go to it directly. */
function poolOf(db: DbOrTx): pg.Pool | undefined {
  return (db as { $client?: pg.Pool }).$client;
}

/** Runs `query` (one statement) as a named prepared statement and returns its rows. */
export async function rowsOf<R>(db: DbOrTx, query: SQL): Promise<R[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const pool = poolOf(db);
  if (!pool) return (await db.execute(query)).rows as R[];
  return run<R>(pool, text, params);
}

async function run<R>(pool: pg.Pool, text: string, params: unknown[]): Promise<R[]> {
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

// Statements rendered once per shape (issue #19, docs/adr/0032-catalogue-statements-by-shape.md).
// Rendering a page's statement with Drizzle on every request (its WHERE from the shared rules,
// the page around it) was the largest part of an uncached list's CPU left in the profiles. A
// list verb now builds its WHERE with its values bound by name (`bound`: Drizzle placeholders)
// and names its shape: everything the statement's text depends on (the caller's kind and
// scope, which filters are present). The text is rendered on the first request of a shape and
// reused; each request fills in its own values (Drizzle's fillPlaceholders).
//
// A wrong shape key would reuse another shape's text, so: a statement whose parameters are not
// all named placeholders is never kept (a raw value would be reused for every later request),
// and under the tests (ATRIUM_CHECK_STATEMENTS=1, test/run.ts) every request renders its
// statement afresh as well and fails if text or parameters differ from the kept ones.

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

type Kept = { text: string; params: unknown[] } | null;
const kept = new Map<string, Kept>();
const CHECK = process.env.ATRIUM_CHECK_STATEMENTS === '1';

/**
 * Runs the statement `build` gives for `key` (a shape's key and the statement's kind): its text
 * rendered once, the values filled in per request. Without a key (or a pool), as `rowsOf`.
 */
async function rowsOfShape<R>(db: DbOrTx, key: string | undefined, values: Record<string, unknown> | undefined, build: () => SQL): Promise<R[]> {
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

export interface PageSpec {
  table: PgTable;
  where: SQL | undefined;
  /**
   * Extra columns of each row of the page, e.g. sql`array(…) as "quotaIds"`. They are computed
   * after the page is cut (outside the window count), so only for the rows returned; they may
   * refer to the table's id column only (the page is a sub-select named like the table, whose
   * columns carry the property names, and the id property is `id`).
   */
  extra?: SQL | undefined;
  /**
   * Columns of the table besides `id` that `extra` refers to, aliased by property name (e.g.
   * sql`${events.categoryId} as "categoryId"`): `pageVersions` selects only these with the id.
   */
  narrow?: SQL | undefined;
  /** Count with an aggregate of its own instead of a window, the page's ids chosen apart (no search). */
  countApart?: boolean | undefined;
  /** ORDER BY expression (the table's id). */
  order: SQL;
  limit: number;
  offset: number;
  /** From `shaped`: the statements are rendered once per shape key. */
  shape?: Shape | undefined;
}

/** Where a page is read from: the database, and the master-data memo that keeps totals (`counted`). */
export interface PageSource {
  db: DbOrTx;
  masterData?: MasterDataMemo | undefined;
}

/**
 * A page of `spec.table` and the total count of matching rows. The count rides on every row
 * (`count(*) over ()`, or an aggregate of its own with `countApart`); only a page past the end,
 * which has no row to carry it, costs a second statement.
 *
 * The window counts ids only, then the page's 25 rows are joined back for their columns: a
 * window over whole rows copies every matching row (2,000 tickets with their texts) into its
 * buffer, 3 of the 4 ms of a large catalogue's page in PostgreSQL (EXPLAIN ANALYZE, ADR 0026).
 */
export async function pageRows<R>(src: PageSource, spec: PageSpec): Promise<{ rows: R[]; total: number }> {
  return counted<R>(src, spec, 'rows', '', (keptTotal) => {
    const extra = spec.extra ? sql`, ${spec.extra}` : sql``;
    return sql`select ${spec.table}.*${extra} from (${pageSql(spec, keptTotal)}) as ${spec.table} order by ${spec.order}`;
  });
}

/** A total kept for a condition (`counted`): the count, at the catalogue version it was read at. */
interface KeptTotal {
  total: number;
  version: number;
}

/** No kept total: the statement counts (no catalogue version is negative). */
const NO_TOTAL: KeptTotal = { total: 0, version: -1 };

/**
 * Runs a page's statement (`build`) and returns its rows and total. A page that counts apart,
 * read while the master-data memo keeps values, keeps its total per condition (issue #19,
 * docs/adr/0040-list-totals-kept.md): the count of every matching row was most of
 * PostgreSQL's work for a page of a large catalogue (2,030 tickets: 0.25 of 0.44 ms), yet it
 * changes only with the catalogue, and the next page, another locale or a page size of the same
 * condition (each its own answer-cache miss) counted again.
 *
 * The kept total is used only by the statement itself: it reads the catalogue version in its own
 * snapshot and counts after all when that is not the kept one (`ofPage`), so a change whose notice
 * has not arrived gives the same total as with no memo. Every change to a table a catalogue list's
 * condition reads bumps that version in its own transaction
 * (src/db/sql/atrium_bump_catalog_version.sql).
 */
async function counted<R>(src: PageSource, spec: PageSpec, kind: string, more: string, build: (keptTotal: boolean) => SQL): Promise<{ rows: R[]; total: number }> {
  const memo = spec.countApart && spec.shape && src.masterData?.keeping ? src.masterData : undefined;
  if (!memo) {
    const rows = await rowsOfShape<R & { __total: number }>(src.db, keyOf(kind, spec, more), valuesOf(spec), () => build(false));
    return { rows, total: await totalOf(src.db, spec, rows) };
  }
  const run = (kept: KeptTotal) =>
    rowsOfShape<R & { __total: number; __cv: number }>(src.db, keyOf(kind, spec, `${more}t`), { ...valuesOf(spec), __kv: kept.version, __kt: kept.total }, () => build(true));
  let read: Array<R & { __total: number; __cv: number }> | undefined;
  const load = async (): Promise<KeptTotal> => {
    read = await run(NO_TOTAL);
    const first = read[0];
    return first ? { total: first.__total, version: first.__cv } : NO_TOTAL;
  };
  // Keyed by what the count depends on: the WHERE's text (its shape) and its values.
  const kept = await memo.memo(`pageTotal|${keyOf('count', spec)}|${JSON.stringify(spec.shape!.values)}`, load, () => 64);
  const rows = read ?? (await run(kept));
  return { rows, total: await totalOf(src.db, spec, rows) };
}

/** The kept statement's key for one kind of statement of a shaped page. */
function keyOf(kind: string, spec: PageSpec, more = ''): string | undefined {
  return spec.shape && `${kind}|${getTableName(spec.table)}|${spec.countApart ? 'c' : 'w'}${more}|${spec.shape.key}`;
}

/** The page's rows with their total, as a sub-select named like the table (`pageRows`). */
function pageSql(spec: PageSpec, keptTotal: boolean): SQL {
  if (spec.countApart) return ofPage(spec, columnsOf(spec.table), keptTotal);
  const { where, id } = whereAndId(spec);
  const ids = sql`select ${id} as "__id", count(*) over () as "__total" from ${spec.table}${where} order by ${spec.order}${limitOffset(spec)}`;
  return sql`select ${columnsOf(spec.table)}, "__page"."__total" from (${ids}) as "__page" join ${spec.table} on ${id} = "__page"."__id"`;
}

/**
 * `columns` of the page's rows and `"__total"`, for a page that counts apart (in no order): the
 * page's ids are chosen first, by themselves, and only those rows are read. The count, the ids
 * and the rows the offset skips can then come from an index alone (tickets: migration 0031,
 * docs/adr/0035-ticket-pages-from-the-index.md); reading the rows' other columns or version
 * (xmin) in the same scan fetched every skipped row from the table (page 40 of 2,030 tickets:
 * 0.77 → 0.37 ms of PostgreSQL, pgbench).
 */
function ofPage(spec: PageSpec, columns: SQL, keptTotal: boolean): SQL {
  const { where, id } = whereAndId(spec);
  const ids = sql`select ${id} from ${spec.table}${where} order by ${spec.order}${limitOffset(spec)}`;
  const count = sql`(select count(*) from ${spec.table}${where})`;
  if (!keptTotal) return sql`select ${columns}, ${count} as "__total" from ${spec.table} where ${id} = any(array(${ids}))`;
  return sql`select ${columns}, ${totalOrCount(count)} from ${spec.table}${atVersion()} where ${id} = any(array(${ids}))`;
}

/**
 * `"__total"`: a kept total (`counted`) if the catalogue version of this statement's snapshot is
 * the one it was read at, else `count`; and that version as `"__cv"`. PostgreSQL runs the
 * sub-select of a CASE branch (an InitPlan) only when the branch is taken, so a kept total costs
 * no count.
 */
function totalOrCount(count: SQL): SQL {
  return sql`case when "__i"."v" = ${sql.placeholder('__kv')}::bigint then ${sql.placeholder('__kt')}::bigint else ${count} end as "__total", "__i"."v" as "__cv"`;
}

/** The catalogue version, read once per statement: joined as `"__i"."v"` (one row, always there). */
const atVersion = renderOnce(() => sql` cross join (select ${instance.catalogVersion} as "v" from ${instance} where ${instance.id} = 1) as "__i"`);

/**
 * ` limit … offset …`, by name for a shaped page (`valuesOf` gives their values).
 *
 * Each is read through a scalar sub-select, which the planner keeps as an InitPlan, so that a
 * custom plan cannot see its value either (the trick of src/db/sql/entry_scan_targets.sql). With a
 * bare `$n`, a custom plan costs a page at 25 rows and the generic plan at a tenth of the table, so
 * for a large catalogue the plan cache never settled on the generic plan: every request was planned
 * again, 0.13-0.26 of ≈ 0.65 ms of PostgreSQL for a page of 2,030 tickets (EXPLAIN, ADR 0034).
 */
function limitOffset(spec: PageSpec): SQL {
  if (!spec.shape) return sql` limit ${spec.limit} offset ${spec.offset}`;
  return sql` limit (select ${sql.placeholder('__limit')}::int) offset (select ${sql.placeholder('__offset')}::int)`;
}

/** A shaped page's values: its WHERE's and its window's. */
function valuesOf(spec: PageSpec): Record<string, unknown> | undefined {
  return spec.shape && { ...spec.shape.values, __limit: spec.limit, __offset: spec.offset };
}

/** ` where …` (or nothing) and the table's id column of a page. */
function whereAndId(spec: PageSpec): { where: SQL; id: AnyPgColumn } {
  return { where: spec.where ? sql` where ${spec.where}` : sql``, id: getTableColumns(spec.table).id as AnyPgColumn };
}

/** The total rides on every row; only a page past the end costs a count of its own. */
async function totalOf(db: DbOrTx, spec: PageSpec, rows: Array<{ __total: number }>): Promise<number> {
  if (rows.length > 0) return rows[0]!.__total;
  if (spec.offset === 0) return 0;
  const [c] = await rowsOfShape<{ n: number }>(db, keyOf('count', spec), valuesOf(spec), () => sql`select count(*)::int as n from ${spec.table}${whereAndId(spec).where}`);
  return c?.n ?? 0;
}

/** A row's version: its `xmin` (as text), which every UPDATE of the row changes (a new tuple). */
export type Versioned = { id: number; __v: string };

/**
 * Related data of a page computed once for all its rows instead of per row: `query(ids)` selects
 * `"__id"` and the extra columns from the related table for the rows whose ids `ids` selects,
 * grouped by row; `columns` picks them from `"__x"` with the value for a row that has none. A
 * correlated `array(select …)` per row was most of PostgreSQL's time for a small catalogue's
 * page (a scan and a sort node per row: ≈ 0.2 of 0.3 ms).
 */
export interface GroupedExtra {
  query(ids: SQL): SQL;
  columns: SQL;
}

/**
 * The page of `pageRows` without the rows' own columns: each row's id, its version (xmin) and
 * the extra columns, and the total. Same WHERE, order, window and extras as `pageRows`, so the
 * same ids in the same order; no other column is read or sent (no translation), and the rows
 * are not joined back: the window's rows are as narrow as in `pageRows`. With `grouped`, the extras come from it instead of
 * `spec.extra` (the same values, computed per page). For row fragments (fragments.ts).
 */
export async function pageVersions<R>(src: PageSource, spec: PageSpec, grouped?: GroupedExtra): Promise<{ rows: Array<R & Versioned>; total: number }> {
  return counted<R & Versioned>(src, spec, 'versions', grouped ? 'g' : '', (keptTotal) => versionsSql(spec, grouped, keptTotal));
}

function versionsSql(spec: PageSpec, grouped: GroupedExtra | undefined, keptTotal: boolean): SQL {
  const { where, id } = whereAndId(spec);
  const narrow = spec.narrow ? sql`, ${spec.narrow}` : sql``;
  // No join back: the page carries the id, the version and the narrow columns only. The count is
  // a window over those narrow rows, or with `countApart` an aggregate of its own over the same
  // WHERE (`ofPage`), so the page itself can stop after its rows (a first page of 2,030 tickets:
  // ≈ 0.7 → 0.45 ms of PostgreSQL, then 0.33 from the index). A search keeps the window: its
  // filter is the costly part, and the page would run it a second time row by row.
  const columns = sql`${id} as "id", ${spec.table}.xmin as "__v"${narrow}`;
  const page = spec.countApart
    ? ofPage(spec, columns, keptTotal)
    : sql`select ${columns}, count(*) over () as "__total" from ${spec.table}${where} order by ${spec.order}${limitOffset(spec)}`;
  const cv = keptTotal ? sql`, ${spec.table}."__cv"` : sql``;
  const own = sql`${spec.table}."id", ${spec.table}."__v", ${spec.table}."__total"${cv}`;
  if (grouped) {
    // Every page is in id order (PageSpec.order).
    const cvOfP = keptTotal ? sql`, "__p"."__cv"` : sql``;
    return sql`with "__p" as materialized (select ${own} from (${page}) as ${spec.table}) select "__p"."id", "__p"."__v", "__p"."__total"${cvOfP}, ${grouped.columns} from "__p" left join (${grouped.query(sql`select "id" from "__p"`)}) as "__x" on "__x"."__id" = "__p"."id" order by "__p"."id"`;
  }
  const extra = spec.extra ? sql`, ${spec.extra}` : sql``;
  return sql`select ${own}${extra} from (${page}) as ${spec.table} order by ${spec.order}`;
}

/** Whole rows of `table` by id, each with its version (xmin), in one statement. */
export async function rowsByIds<R>(db: DbOrTx, table: PgTable, ids: number[]): Promise<Array<R & Versioned>> {
  const id = getTableColumns(table).id as AnyPgColumn;
  return rowsOf<R & Versioned>(db, sql`select ${columnsOf(table)}, ${table}.xmin as "__v" from ${table} where ${inIds(id, ids)}`);
}
