// Every statement on promo codes and their uses (migration 0046). A use is taken only through
// `takeUse`: one conditional update that refuses (returns nothing) once max_uses is reached, so
// concurrent orders on any number of processes never take more uses than the code has.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { promoCodes, promoCodeUses } from '../schema/index.ts';

export type PromoCodeRow = typeof promoCodes.$inferSelect;
export type NewPromoCode = typeof promoCodes.$inferInsert;

export async function insertPromoCode(db: DbOrTx, row: NewPromoCode): Promise<PromoCodeRow | undefined> {
  const [c] = await db.insert(promoCodes).values(row).onConflictDoNothing().returning();
  return c;
}

export async function promoCodeById(db: DbOrTx, id: number): Promise<PromoCodeRow | undefined> {
  const [c] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  return c;
}

export async function promoCodeByCode(db: DbOrTx, code: string): Promise<PromoCodeRow | undefined> {
  const [c] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return c;
}

export async function listPromoCodes(db: DbOrTx, opts: { limit: number; offset: number }): Promise<PromoCodeRow[]> {
  return db.select().from(promoCodes).orderBy(desc(promoCodes.id)).limit(opts.limit).offset(opts.offset);
}

export async function setPromoActive(db: DbOrTx, id: number, active: boolean, now: Date): Promise<PromoCodeRow | undefined> {
  const [c] = await db.update(promoCodes).set({ active, updatedAt: now }).where(eq(promoCodes.id, id)).returning();
  return c;
}

/** Counts one use while uses stay within max_uses; undefined when the code is used up. */
export async function takeUse(db: DbOrTx, id: number, now: Date): Promise<PromoCodeRow | undefined> {
  const [c] = await db
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1`, updatedAt: now })
    .where(and(eq(promoCodes.id, id), sql`(${promoCodes.maxUses} is null or ${promoCodes.uses} < ${promoCodes.maxUses})`))
    .returning();
  return c;
}

/** Test-only (the race's control run): writes a count computed by the caller, unguarded. */
export async function setUsesUnguarded(db: DbOrTx, id: number, uses: number): Promise<void> {
  await db.update(promoCodes).set({ uses }).where(eq(promoCodes.id, id));
}

export async function insertUse(db: DbOrTx, row: typeof promoCodeUses.$inferInsert): Promise<void> {
  await db.insert(promoCodeUses).values(row);
}

export async function usesByEmail(db: DbOrTx, id: number, email: string): Promise<number> {
  const [r] = await db.select({ n: count() }).from(promoCodeUses).where(and(eq(promoCodeUses.promoCodeId, id), eq(promoCodeUses.email, email)));
  return Number(r?.n ?? 0);
}
