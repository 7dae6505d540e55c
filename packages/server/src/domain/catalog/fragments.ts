// Catalogue list pages assembled from per-row JSON (docs/adr/0022-catalogue-read-path.md).
// A row's JSON is produced once and kept (src/cache/rows.ts), keyed by everything it depends on:
// the table and row id, the row's version (xmin, which every UPDATE of the row changes), the
// related data the view shows (the page's extra columns: quota ids, languages, category name),
// the caller (`callerKey`), the locale mode and the list's own context (a ticket list's
// `valid_at`). A page then costs one statement that returns only ids, versions, extras and the
// total (`readPageVersions`), plus one statement for the rows whose JSON is not kept yet
// (`readRowsByIds`); both are the page-query compiler's (db/repositories/catalog/).
//
// The answer is the same as the plain path's (`readPage` + views + the route's serializer):
// - the ids, their order and the total come from the same WHERE, ORDER BY, window and extras;
// - a row fetched by id is used only if its version is the one the page listed, so every row is
//   the one of the page's snapshot; otherwise the page is read again the plain way (`readPage`);
// - the JSON of a row is its view, built by the same view function, serialized by the route's
//   own compiled serializer for the item schema (routes/catalog/common.ts).
// test/http/catalog-cache-equivalence.test.ts compares the answers byte for byte.
import { readPage, readPageVersions, readRowsByIds, tableOf, type PageQuery, type PageSource, type PageWindow } from '../../db/repositories/catalog/pages.ts';
import type { Principal } from '../principal.ts';
import type { LocaleMode, Page, Paging } from './internal.ts';
import { pageOf } from './internal.ts';
import type { View } from './views.ts';

/** A process's store of row JSON (src/cache/rows.ts). */
export interface RowFragments {
  get(key: string, now: number): string | undefined;
  /** Stores unless the store was cleared since `gen` was read. */
  set(key: string, json: string, now: number, gen: number): void;
  readonly gen: number;
}

/** Where a page's JSON goes: the store, and the route's serializer for one item. */
export interface JsonOut {
  fragments: RowFragments;
  render(view: View): string;
}

/** A list verb's page, ready to run either way: rows and views, or row fragments. */
export interface PagePlan<R> {
  /** The page's query (db/repositories/catalog/lists.ts); its extras key a row's JSON. */
  query: PageQuery<R>;
  /** The view of one row (with its extras), as the plain path builds it. */
  view(row: R): View;
  /** Everything else the view reads: caller, locale mode, and e.g. `valid_at`. */
  context: string;
  paging: Paging;
}

/**
 * What an answer depends on about the caller: anonymous; a public token's museum scope; a
 * reseller's account (visibility and prices); a user's scope and rights. Shared with the answer
 * cache's key (src/cache/responses.ts).
 */
export function callerKey(p: Principal): string {
  if (p.kind === 'anonymous') return 'anon';
  const scope = p.museumIds.length ? [...p.museumIds].sort((a, b) => a - b).join(',') : '*';
  if (p.access === 'public' || p.access === 'shop') return `pub:${scope}`;
  if (p.access === 'reseller') return `res${p.accountId}:${scope}`;
  return `usr:${scope}:${[...p.rights].sort().join(',')}`;
}

export function localeKey(L: LocaleMode): string {
  return L.kind === 'one' ? `1:${L.locale}:${L.fallback}` : `n:${L.locales.join(',')}`;
}

/** The plain path: rows, then views (the route's schema serializes them). */
export async function pageOfViews<R>(src: PageSource, plan: PagePlan<R>): Promise<Page<View>> {
  const { rows, total } = await readPage<R>(src, plan.query);
  return pageOf(rows.map((r) => plan.view(r)), total, plan.paging);
}

/** The same page as `pageOfViews`, each item as its JSON text, from kept fragments where possible. */
export async function pageOfJson<R>(src: PageSource, plan: PagePlan<R>, out: JsonOut): Promise<Page<string>> {
  const { db } = src;
  const { rows, total } = await readPageVersions(src, plan.query);
  const { extraKeys } = plan.query;
  const now = Date.now();
  const prefix = `${tableOf(plan.query)}|${plan.context}|`;
  const items: string[] = new Array(rows.length);
  const keys: string[] = new Array(rows.length);
  let missing: number[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    let key = `${prefix}${r.id}|${r.__v}`;
    if (extraKeys.length > 0) key += `|${JSON.stringify(extraKeys.map((k) => r[k]))}`;
    keys[i] = key;
    const hit = out.fragments.get(key, now);
    if (hit !== undefined) items[i] = hit;
    else (missing ??= []).push(i);
  }
  if (missing) {
    const gen = out.fragments.gen;
    const fetched = await readRowsByIds(db, plan.query, missing.map((i) => rows[i]!.id));
    const byId = new Map(fetched.map((f) => [f.id, f]));
    // Changed (or gone) since the page was read: the page would mix two states. Read it again in
    // one statement, as the plain path does, and keep nothing from this round.
    if (missing.some((i) => byId.get(rows[i]!.id)?.__v !== rows[i]!.__v)) return fallback(src, plan, out);
    for (const i of missing) {
      const listed = rows[i]!;
      const row = byId.get(listed.id)!;
      for (const k of extraKeys) row[k] = listed[k];
      const json = out.render(plan.view(row as R));
      items[i] = json;
      out.fragments.set(keys[i]!, json, now, gen);
    }
  }
  return pageOf(items, total, plan.paging);
}

async function fallback<R>(src: PageSource, plan: PagePlan<R>, out: JsonOut): Promise<Page<string>> {
  const page = await pageOfViews(src, plan);
  return { ...page, items: page.items.map((v) => out.render(v)) };
}

/** The rows of a page: `perPage` of them after `offset` (a list's paging). */
export function windowOf(p: Paging): PageWindow {
  return { limit: p.perPage, offset: p.offset };
}
