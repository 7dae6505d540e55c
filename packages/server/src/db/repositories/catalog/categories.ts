// go~mus categories of events and tours (migration 0024): by id, by name (created when new), and
// those the products a viewer sees use.
import { and, asc, eq, exists } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { categories, events, tours } from '../../schema/index.ts';
import type { CategoryKind } from './filters.ts';
import { visibleSql, type Viewer } from './visibility.ts';

export interface CategoryRef {
  id: number;
  name: string;
}

export async function categoryById(db: DbOrTx, id: number): Promise<CategoryRef | undefined> {
  const [c] = await db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, id));
  return c;
}

/** The id of the `kind` category `id`, if there is one. */
export async function categoryIdOfKind(db: DbOrTx, kind: CategoryKind, id: number): Promise<number | undefined> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(and(eq(categories.id, id), eq(categories.kind, kind)));
  return row?.id;
}

/** The id of the `kind` category called `name`, created when new. */
export async function categoryIdByName(db: DbOrTx, kind: CategoryKind, name: string): Promise<number> {
  const find = () => db.select({ id: categories.id }).from(categories).where(and(eq(categories.kind, kind), eq(categories.name, name)));
  const [have] = await find();
  if (have) return have.id;
  // Two writers creating the same new name: one inserts, the other finds it after the conflict.
  const [made] = await db.insert(categories).values({ kind, name }).onConflictDoNothing().returning({ id: categories.id });
  return made?.id ?? (await find())[0]!.id;
}

/**
 * The `kind` categories by id: every one (`viewer` undefined), or those of the events (tours)
 * `viewer` can see.
 */
export function categoriesOfKind(db: DbOrTx, kind: CategoryKind, viewer: Viewer | undefined): Promise<CategoryRef[]> {
  const table = kind === 'event' ? events : tours;
  const used = viewer && exists(db.select({ x: table.id }).from(table).where(and(eq(table.categoryId, categories.id), visibleSql(viewer, table))));
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.kind, kind), used))
    .orderBy(asc(categories.id));
}
