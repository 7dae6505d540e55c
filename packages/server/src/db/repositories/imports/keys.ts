// Catalogue keys (catalog_keys): which record a key of a catalogue file (or of the demo) names,
// and the lock that serialises imports.
import { and, eq, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { catalogKeys } from '../../schema/index.ts';

export type CatalogKey = typeof catalogKeys.$inferSelect;

// Serialises imports (and demo seeding on several nodes at once): two concurrent imports of one
// file would otherwise both find a key missing and both insert the record.
export const IMPORT_LOCK = 7_346_812_101;

/** Takes the import lock until the transaction ends. */
export async function lockImports(db: DbOrTx): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
}

export function allCatalogKeys(db: DbOrTx): Promise<CatalogKey[]> {
  return db.select().from(catalogKeys);
}

/** The keys starting with `prefix`. */
export function catalogKeysStartingWith(db: DbOrTx, prefix: string): Promise<CatalogKey[]> {
  return db.select().from(catalogKeys).where(like(catalogKeys.key, `${prefix}%`));
}

/** The record a key names, if any. */
export async function recordIdOfKey(db: DbOrTx, kind: string, key: string): Promise<number | undefined> {
  const [row] = await db.select({ id: catalogKeys.recordId }).from(catalogKeys).where(and(eq(catalogKeys.kind, kind), eq(catalogKeys.key, key)));
  return row?.id;
}

/** Points a key at a record (a new one, or after its record was deleted elsewhere). */
export async function pointKey(db: DbOrTx, kind: string, key: string, recordId: number, now: Date): Promise<void> {
  await db
    .insert(catalogKeys)
    .values({ kind, key, recordId })
    .onConflictDoUpdate({ target: [catalogKeys.kind, catalogKeys.key], set: { recordId, updatedAt: now } });
}

export async function dropKey(db: DbOrTx, kind: string, key: string): Promise<void> {
  await db.delete(catalogKeys).where(and(eq(catalogKeys.kind, kind), eq(catalogKeys.key, key)));
}
