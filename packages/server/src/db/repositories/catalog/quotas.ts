// Quotas (capacity pools of tickets) and their per-date overrides.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { quotaOverrides, quotas } from '../../schema/index.ts';
import type { PageWindow } from './pages.ts';
import { inScopeSql, type Viewer } from './visibility.ts';

export type Quota = typeof quotas.$inferSelect;
export type QuotaValues = Pick<Quota, 'name' | 'kind' | 'capacity'>;

/** A page of the quotas in the viewer's museums (and `museumIds`, when given), by id, and their count. */
export async function quotasPage(db: DbOrTx, f: { viewer: Viewer; museumIds?: readonly number[] | undefined }, w: PageWindow): Promise<{ rows: Quota[]; total: number }> {
  const where = and(inScopeSql(f.viewer, quotas.museumId), f.museumIds?.length ? inArray(quotas.museumId, [...f.museumIds]) : undefined);
  const [rows, total] = await Promise.all([
    db.select().from(quotas).where(where).orderBy(asc(quotas.id)).limit(w.limit).offset(w.offset),
    db.$count(quotas, where),
  ]);
  return { rows, total };
}

export async function quotaById(db: DbOrTx, id: number): Promise<Quota | undefined> {
  const [q] = await db.select().from(quotas).where(eq(quotas.id, id));
  return q;
}

/** The quota, locked for update until the transaction ends. */
export async function lockQuota(db: DbOrTx, id: number): Promise<Quota | undefined> {
  const [q] = await db.select().from(quotas).where(eq(quotas.id, id)).for('update');
  return q;
}

export async function insertQuota(db: DbOrTx, values: QuotaValues & { museumId: number }): Promise<Quota> {
  return (await db.insert(quotas).values(values).returning())[0]!;
}

export async function updateQuota(db: DbOrTx, id: number, values: QuotaValues & { updatedAt: Date }): Promise<Quota> {
  return (await db.update(quotas).set(values).where(eq(quotas.id, id)).returning())[0]!;
}

/** Sets a quota's capacity on one day (null: closed), replacing an override of that day. */
export async function upsertQuotaOverride(db: DbOrTx, quotaId: number, date: string, capacity: number | null): Promise<void> {
  await db
    .insert(quotaOverrides)
    .values({ quotaId, date, capacity })
    .onConflictDoUpdate({ target: [quotaOverrides.quotaId, quotaOverrides.date], set: { capacity } });
}

/** Removes a day's override; whether there was one. */
export async function deleteQuotaOverride(db: DbOrTx, quotaId: number, date: string): Promise<boolean> {
  const gone = await db.delete(quotaOverrides).where(and(eq(quotaOverrides.quotaId, quotaId), eq(quotaOverrides.date, date))).returning();
  return gone.length > 0;
}
