// The shop's account row (migration 0039).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { shopAccount } from '../schema/shop.ts';
import { promoCodes, promoCodeUses } from '../schema/promoCodes.ts';

export async function shopAccountRow(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ id: shopAccount.accountId }).from(shopAccount).where(eq(shopAccount.singleton, true));
  return row?.id ?? null;
}

/** The promo codes an order used and the discount each gave (the summary's discount lines). */
export async function promoUsesOfOrder(db: DbOrTx, orderId: number): Promise<Array<{ code: string; discountCents: number }>> {
  return db
    .select({ code: promoCodes.code, discountCents: promoCodeUses.discountCents })
    .from(promoCodeUses)
    .innerJoin(promoCodes, eq(promoCodes.id, promoCodeUses.promoCodeId))
    .where(eq(promoCodeUses.orderId, orderId))
    .orderBy(promoCodeUses.id);
}
