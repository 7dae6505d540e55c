// go~mus categories (docs/gomus-compatibility.md, migration 0024): an event's or tour's
// `category` is `{id, name}` or null, GET /events/categories and /tours/categories list them, and
// `by_category_ids[]` / `by_categories[]` (names) filter by them. Event and tour categories are
// apart, as in go~mus. Writers name a category by id, or by name (created when new), so the
// catalogue file and the staff API keep accepting the plain text they sent before.
import type { DbOrTx } from '../../db/client.ts';
import { categoriesOfKind, categoryById, categoryIdByName, categoryIdOfKind, type CategoryRef } from '../../db/repositories/catalog/categories.ts';
import type { CategoryKind } from '../../db/repositories/catalog/filters.ts';
import type { Ctx } from '../context.ts';

export type { CategoryKind, CategoryRef };

/** What a writer may send as `category`: a name, `{id}`, `{name}`, or null (or "") for none. */
export type CategoryInput = string | { id?: number | undefined; name?: string | undefined } | null;

export const CATEGORY_NAME_MAX = 200;

/** `{id, name}` of a row read with its category's name (db/repositories/catalog/filters.ts#categoryNameSql), or null. */
export function categoryRef(r: { categoryId: number | null; categoryName: string | null }): CategoryRef | null {
  return r.categoryId === null || r.categoryName === null ? null : { id: r.categoryId, name: r.categoryName };
}

/** The category of one record (write answers, single dates). */
export async function categoryOf(db: DbOrTx, id: number | null): Promise<CategoryRef | null> {
  if (id === null) return null;
  return (await categoryById(db, id)) ?? null;
}

/**
 * GET /events/categories, /tours/categories: the categories of the events (tours) the caller
 * can see, like /events/languages, so a partner is never told about products it cannot see.
 * Users see every category of the kind (they assign them).
 */
export async function listCategories(ctx: Ctx, input: { of: 'events' | 'tours' }): Promise<CategoryRef[]> {
  const p = ctx.principal;
  const kind: CategoryKind = input.of === 'events' ? 'event' : 'tour';
  const all = p.kind === 'account' && p.access === 'user';
  return categoriesOfKind(ctx.db, kind, all ? undefined : p);
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
    const id = await categoryIdOfKind(tx, kind, c.id);
    return id !== undefined ? { id, problems: [] } : { id: null, problems: [`category ${c.id} is not a known ${kind} category`] };
  }
  const name = typeof c === 'string' ? c : c.name!;
  return { id: await categoryIdByName(tx, kind, name), problems: [] };
}
