// A catalogue list's page as a query object: what the page-query compiler (pages.ts) runs, the
// table's name and the extra columns that key a row's JSON (row fragments, domain/catalog/
// fragments.ts). The lists build theirs in lists.ts; the domain only runs them.
import { getTableName } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { pageRows, pageVersions, rowsByIds, type GroupedExtra, type PageSource, type PageSpec, type Versioned } from './pages.ts';

export type { PageSource, Versioned } from './pages.ts';

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
