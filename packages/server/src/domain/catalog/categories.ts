// go~mus categories (docs/gomus-compatibility.md, migration 0024): an event's or tour's
// `category` is `{id, name}` or null, GET /events/categories and /tours/categories list them, and
// `by_category_ids[]` / `by_categories[]` (names) filter by them. Event and tour categories are
// apart, as in go~mus. Writers name a category by id, or by name (created when new), so the
// catalogue file and the staff API keep accepting the plain text they sent before.
import { and, asc, eq, exists, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { categories, events, tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { bound, inIds } from './pageQuery.ts';
import { visibleSql } from './visibilitySql.ts';

export type CategoryKind = 'event' | 'tour';
export interface CategoryRef {
  id: number;
  name: string;
}
/** What a writer may send as `category`: a name, `{id}`, `{name}`, or null (or "") for none. */
export type CategoryInput = string | { id?: number | undefined; name?: string | undefined } | null;

export const CATEGORY_NAME_MAX = 200;

/**
 * The name of a row's category as a column, for one-statement reads; categoryRef() makes the
 * `{id, name}`. A plain text column, not json_build_object: a page of 25 events cost no
 * measurable time more (json: +8–12 %, interleaved A/B, load average 11–16). In a page's extra
 * columns (pageQuery.ts) the row's columns go by property name: pass sql`${table}."categoryId"`.
 */
export function categoryNameSql(categoryId: AnyPgColumn | SQL): SQL {
  return sql`(select ${categories.name} from ${categories} where ${categories.id} = ${categoryId})`;
}

/** `{id, name}` of a row read with categoryNameSql, or null. */
export function categoryRef(r: { categoryId: number | null; categoryName: string | null }): CategoryRef | null {
  return r.categoryId === null || r.categoryName === null ? null : { id: r.categoryId, name: r.categoryName };
}

/** The category of one record (write answers, single dates). */
export async function categoryOf(db: DbOrTx, id: number | null): Promise<CategoryRef | null> {
  if (id === null) return null;
  const [c] = await db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, id));
  return c ?? null;
}

/**
 * go~mus `by_category_ids[]` and `by_categories[]` (names) on a list of `kind` records: a record
 * matches either. An id or a name that names no category matches nothing, as in go~mus (an
 * empty list, not an error).
 */
export function categoryFilter(categoryId: AnyPgColumn, input: { by_category_ids?: number[] | undefined; by_categories?: string[] | undefined }, kind: CategoryKind): SQL | undefined {
  const ids = input.by_category_ids?.length ? inIds(categoryId, input.by_category_ids) : undefined;
  const names = input.by_categories?.length
    ? sql`${categoryId} in (select ${categories.id} from ${categories} where ${categories.kind} = ${bound(kind)} and ${categories.name} = any(${bound(input.by_categories)}::text[]))`
    : undefined;
  if (ids && names) return sql`(${ids} or ${names})`;
  return ids ?? names;
}

/**
 * GET /events/categories, /tours/categories: the categories of the events (tours) the caller
 * can see, like /events/languages, so a partner is never told about products it cannot see.
 * Users see every category of the kind (they assign them).
 */
export async function listCategories(ctx: Ctx, input: { of: 'events' | 'tours' }): Promise<CategoryRef[]> {
  const p = ctx.principal;
  const kind: CategoryKind = input.of === 'events' ? 'event' : 'tour';
  const table = input.of === 'events' ? events : tours;
  const all = p.kind === 'account' && p.access === 'user';
  const used = exists(ctx.db.select({ x: table.id }).from(table).where(and(eq(table.categoryId, categories.id), visibleSql(p, table))));
  return ctx.db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.kind, kind), all ? undefined : used))
    .orderBy(asc(categories.id));
}

/** Problems with a `category` a writer sent (shape only; the reference is checked in the write). */
export function categoryInputProblems(c: unknown): string[] {
  if (c === null || c === undefined) return [];
  const bad = ['category must be a name, {"id": …}, {"name": …} or null'];
  if (typeof c === 'string') return c.length > CATEGORY_NAME_MAX ? [`category must be at most ${CATEGORY_NAME_MAX} characters`] : [];
  if (typeof c !== 'object' || Array.isArray(c)) return bad;
  const { id, name } = c as Record<string, unknown>;
  if (id !== undefined) return Number.isInteger(id) && (id as number) >= 1 && (id as number) <= 2_147_483_647 ? [] : ['category.id must be a category id'];
  if (typeof name === 'string') return name === '' ? ['category.name must not be empty'] : categoryInputProblems(name);
  return bad;
}

/**
 * The category id a writer's `category` names, inside the write's transaction: an id must name
 * a category of this kind (else a problem is returned with id null), a name is found or created.
 */
export async function resolveCategory(tx: DbOrTx, kind: CategoryKind, c: CategoryInput | undefined): Promise<{ id: number | null; problems: string[] }> {
  // An empty name is no category (the HTTP layer already reads "" as null).
  if (c === null || c === undefined || c === '') return { id: null, problems: [] };
  if (typeof c === 'object' && c.id !== undefined) {
    const [row] = await tx.select({ id: categories.id }).from(categories).where(and(eq(categories.id, c.id), eq(categories.kind, kind)));
    return row ? { id: row.id, problems: [] } : { id: null, problems: [`category ${c.id} is not a known ${kind} category`] };
  }
  const name = typeof c === 'string' ? c : c.name!;
  return { id: await categoryIdByName(tx, kind, name), problems: [] };
}

/** The id of the `kind` category called `name`, created when new (the catalogue file, writes). */
export async function categoryIdByName(tx: DbOrTx, kind: CategoryKind, name: string): Promise<number> {
  const find = () => tx.select({ id: categories.id }).from(categories).where(and(eq(categories.kind, kind), eq(categories.name, name)));
  const [have] = await find();
  if (have) return have.id;
  // Two writers creating the same new name: one inserts, the other finds it after the conflict.
  const [made] = await tx.insert(categories).values({ kind, name }).onConflictDoNothing().returning({ id: categories.id });
  return made?.id ?? (await find())[0]!.id;
}
