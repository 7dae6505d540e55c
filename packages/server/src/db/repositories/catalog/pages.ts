// A page of a catalogue list in one statement (docs/adr/0022-catalogue-read-path.md): the rows,
// the total count and the related ids of each row, or (for row fragments) only the rows' ids,
// versions and related ids. Statements are kept by shape (shapes.ts).
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../client.ts';
import { instance } from '../../schema/index.ts';
import { rowsOfShape, inIds, type Shape } from './shapes.ts';
import { columnsOf, renderOnce, rowsOf } from './statements.ts';

/**
 * Values kept while the catalogue does not change (the master-data memo, src/cache/masterData.ts):
 * a page's total per condition is kept there.
 */
export interface KeptValues {
  memo<T>(key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T>;
  readonly keeping: boolean;
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
/** Where a page is read from: the database, and the master-data memo that keeps totals (`counted`). */
export interface PageSource {
  db: DbOrTx;
  masterData?: KeptValues | undefined;
}
/**
 * A page of `spec.table` and the total count of matching rows. The count rides on every row
 * (`count(*) over ()`, or an aggregate of its own with `countApart`); only a page past the end,
 * which has no row to carry it, costs a second statement.
 *
 * The window counts ids only, then the page's 25 rows are joined back for their columns: a
 * window over whole rows copies every matching row (with its texts) into its buffer, most of a
 * large catalogue's page in PostgreSQL (docs/adr/0022-catalogue-read-path.md).
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
 * read while the master-data memo keeps values, keeps its total per condition
 * (docs/adr/0022-catalogue-read-path.md): the count of every matching row was most of
 * PostgreSQL's work for a page of a large catalogue, yet it changes only with the catalogue, and the next page, another locale or a page size of the same
 * condition (each its own answer-cache miss) counted again.
 *
 * The kept total is used only by the statement itself: it reads the catalogue version in its own
 * snapshot and counts after all when that is not the kept one (`ofPage`), so a change whose
 * notice has not arrived gives the same total as with no memo. Every change to a table a
 * catalogue list's condition reads bumps that version in its own transaction (the trigger
 * function atrium_bump_catalog_version, src/db/sql/atrium_bump_catalog_version.sql).
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
 * docs/adr/0022-catalogue-read-path.md); reading the rows' other columns or version
 * (xmin) in the same scan fetched every skipped row from the table.
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
 * custom plan cannot see its value either (as entry_scan_targets reads its arrays,
 * src/db/sql/entry_scan_targets.sql). With a bare `$n`, a custom plan costs a page at 25 rows and
 * the generic plan at a tenth of the table, so for a large catalogue the plan cache never settled
 * on the generic plan: every request was planned again (docs/adr/0022-catalogue-read-path.md).
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
 * page (a scan and a sort node per row).
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
  // WHERE (`ofPage`), so the page itself can stop after its rows, and from the index alone. A
  // search keeps the window: its
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

// A catalogue list's page as a query object: what the statements above run, and the extra
// columns that key a row's JSON (row fragments, domain/catalog/fragments.ts). The lists build
// theirs in lists.ts; the domain only runs them.

/** A page of rows of type `R`. */
export interface PageQuery<R> {
  spec: PageSpec;
  /** The same extras computed once per page, for the page of versions (pages.ts). */
  groupedExtra?: GroupedExtra | undefined;
  /** Property names of the columns of `spec.extra`: with the row's version they key its JSON. */
  extraKeys: readonly string[];
  /** Phantom: the row type. */
  readonly row?: R;
}

/** Which rows of a list: the page size and how many rows come before the page. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** The table a page reads, by name (part of a row fragment's key). */
export function tableOf(query: PageQuery<unknown>): string {
  return getTableName(query.spec.table);
}

/** The page's rows with their extras, and the total count of matching rows. */
export function readPage<R>(src: PageSource, query: PageQuery<R>): Promise<{ rows: R[]; total: number }> {
  return pageRows<R>(src, query.spec);
}

/**
 * The page's ids, row versions (xmin) and extras, and the total: same WHERE, order, window and
 * extras as `readPage`, so the same ids in the same order; no other column is read.
 */
export function readPageVersions(src: PageSource, query: PageQuery<unknown>): Promise<{ rows: Array<Record<string, unknown> & Versioned>; total: number }> {
  return pageVersions<Record<string, unknown>>(src, query.spec, query.groupedExtra);
}

/** Whole rows of the page's table by id, each with its version (xmin), in one statement. */
export function readRowsByIds(db: DbOrTx, query: PageQuery<unknown>, ids: number[]): Promise<Array<Record<string, unknown> & Versioned>> {
  return rowsByIds<Record<string, unknown>>(db, query.spec.table, ids);
}
