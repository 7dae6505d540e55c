// Statements on the gift cards and single-purpose vouchers an order sells (GiftCard and Voucher
// lines, migration 0051), and on the codes an order took (promo uses, redeemed vouchers) when it
// is cancelled. Voiding is one conditional update each, so a card redeemed or a voucher redeemed
// in between is refused rather than voided with value spent.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { giftCards, museums, orderItems, orderDiscounts, promoCodes, promoCodeUses, singlePurposeVouchers } from '../schema/index.ts';
import type { GiftCardRow } from './giftCards.ts';
import type { VoucherRow } from './singlePurposeVouchers.ts';

/** The museum a line without a product is booked under: the instance's first (lowest id). */
export async function firstMuseum(db: DbOrTx): Promise<{ id: number; zone: string } | undefined> {
  const [m] = await db.select({ id: museums.id, zone: museums.timeZone }).from(museums).orderBy(asc(museums.id)).limit(1);
  return m;
}

/** The order's GiftCard and Voucher lines (active ones only, or cancelled too), in item order. */
export async function codeLinesOfOrder(db: DbOrTx, orderId: number, activeOnly = true): Promise<Array<typeof orderItems.$inferSelect>> {
  const conds = [eq(orderItems.orderId, orderId), inArray(orderItems.type, ['GiftCard', 'Voucher'])];
  if (activeOnly) conds.push(eq(orderItems.status, 'active'));
  return db
    .select()
    .from(orderItems)
    .where(and(...conds))
    .orderBy(asc(orderItems.id));
}

export async function cardsOfItems(db: DbOrTx, itemIds: number[], forUpdate = false): Promise<GiftCardRow[]> {
  if (itemIds.length === 0) return [];
  const q = db.select().from(giftCards).where(inArray(giftCards.orderItemId, itemIds)).orderBy(asc(giftCards.id));
  return forUpdate ? q.for('update') : q;
}

export async function vouchersOfItems(db: DbOrTx, itemIds: number[], forUpdate = false): Promise<VoucherRow[]> {
  if (itemIds.length === 0) return [];
  const q = db.select().from(singlePurposeVouchers).where(inArray(singlePurposeVouchers.orderItemId, itemIds)).orderBy(asc(singlePurposeVouchers.id));
  return forUpdate ? q.for('update') : q;
}

/** Whether the card has any ledger entry beyond its issue (a redemption, refund, correction). */
export async function cardWasUsed(db: DbOrTx, id: number): Promise<boolean> {
  const r = await db.execute<{ n: string }>(sql`select count(*) as n from gift_card_ledger where gift_card_id = ${id} and kind <> 'issued'`);
  return Number(r.rows[0]?.n ?? 0) > 0;
}

/** Takes an untouched card's whole balance away; undefined when it was used or voided before. */
export async function voidCardRow(db: DbOrTx, id: number, now: Date): Promise<GiftCardRow | undefined> {
  const [c] = await db
    .update(giftCards)
    .set({ balanceCents: 0, voidedAt: now, updatedAt: now })
    .where(and(eq(giftCards.id, id), isNull(giftCards.voidedAt), eq(giftCards.balanceCents, giftCards.initialCents)))
    .returning();
  return c;
}

/** Test-only (the race's control run): zeroes the balance whatever happened since it was read. */
export async function voidCardRowUnguarded(db: DbOrTx, id: number, now: Date): Promise<GiftCardRow | undefined> {
  const [c] = await db.update(giftCards).set({ balanceCents: 0, voidedAt: now, updatedAt: now }).where(eq(giftCards.id, id)).returning();
  return c;
}

/** Voids an unredeemed voucher; undefined when it was redeemed or voided before. */
export async function voidVoucherRow(db: DbOrTx, id: number, now: Date): Promise<VoucherRow | undefined> {
  const [v] = await db
    .update(singlePurposeVouchers)
    .set({ voidedAt: now })
    .where(and(eq(singlePurposeVouchers.id, id), isNull(singlePurposeVouchers.voidedAt), isNull(singlePurposeVouchers.orderId)))
    .returning();
  return v;
}

/** The sealed code of a sold card or voucher, left in place (the buyer may download again). */
export async function sealedCodeOf(db: DbOrTx, kind: 'gift_card' | 'voucher', id: number): Promise<string | null> {
  const table = kind === 'gift_card' ? giftCards : singlePurposeVouchers;
  const [r] = await db.select({ sealed: table.codeSealed }).from(table).where(eq(table.id, id));
  return r?.sealed ?? null;
}

/**
 * Gives back the promo-code uses an order took: the code's count goes down and the use row (the
 * per-e-mail count) goes; what the code took off stays in order_discounts, the history the
 * invoice and its credit note show. Returns the codes given back.
 */
export async function giveBackPromoUses(db: DbOrTx, orderId: number): Promise<number[]> {
  const gone = await db.delete(promoCodeUses).where(eq(promoCodeUses.orderId, orderId)).returning({ id: promoCodeUses.promoCodeId });
  const ids = gone.map((g) => g.id);
  // One use row per code and order (unique), so one use back per code.
  if (ids.length) await db.update(promoCodes).set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` }).where(inArray(promoCodes.id, ids));
  return ids;
}

/** Un-redeems the vouchers this order redeemed on the given items; returns their ids. */
export async function unredeemVouchers(db: DbOrTx, orderId: number, itemIds: number[]): Promise<number[]> {
  if (itemIds.length === 0) return [];
  const used = await db
    .selectDistinct({ id: orderDiscounts.voucherId })
    .from(orderDiscounts)
    .where(and(eq(orderDiscounts.orderId, orderId), inArray(orderDiscounts.orderItemId, itemIds), sql`${orderDiscounts.voucherId} is not null`));
  const ids = used.map((u) => u.id!);
  if (ids.length === 0) return [];
  const back = await db
    .update(singlePurposeVouchers)
    .set({ orderId: null, redeemedAt: null })
    .where(and(inArray(singlePurposeVouchers.id, ids), eq(singlePurposeVouchers.orderId, orderId)))
    .returning({ id: singlePurposeVouchers.id });
  return back.map((b) => b.id);
}

/** Pending orders expired before `before` that still hold promo-code uses or redeemed vouchers. */
export async function expiredOrdersHoldingCodes(db: DbOrTx, before: Date, limit: number): Promise<number[]> {
  const r = await db.execute<{ id: number }>(sql`
    select o.id from orders o
     where o.status = 'pending' and o.expires_at < ${before}
       and (exists (select 1 from promo_code_uses u where u.order_id = o.id)
            or exists (select 1 from single_purpose_vouchers v where v.order_id = o.id))
     order by o.id limit ${limit}`);
  return r.rows.map((x) => Number(x.id));
}

export async function itemIdsOfOrder(db: DbOrTx, orderId: number): Promise<number[]> {
  return (await db.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.orderId, orderId))).map((r) => r.id);
}

/**
 * The codes the order's discounts name, whether the order still holds each (its use row, the
 * voucher redeemed by it), and its customer's e-mail (a use's record).
 */
export async function codesOfDiscounts(db: DbOrTx, orderId: number): Promise<{
  promos: Array<{ id: number; cents: number; held: boolean }>;
  vouchers: Array<{ id: number; held: boolean }>;
  email: string | null;
}> {
  const r = await db.execute<{ promo_id: number | null; voucher_id: number | null; cents: number; held: boolean; email: string | null }>(sql`
    select d.promo_code_id promo_id, d.voucher_id, sum(d.amount_cents)::int cents,
           case when d.promo_code_id is not null
                then exists (select 1 from promo_code_uses u where u.promo_code_id = d.promo_code_id and u.order_id = d.order_id)
                else exists (select 1 from single_purpose_vouchers v where v.id = d.voucher_id and v.order_id = d.order_id) end held,
           (select c.email from orders o join customers c on c.id = o.customer_id where o.id = d.order_id) email
      from order_discounts d where d.order_id = ${orderId}
     group by d.order_id, d.promo_code_id, d.voucher_id`);
  const rows = r.rows;
  return {
    promos: rows.filter((x) => x.promo_id !== null).map((x) => ({ id: Number(x.promo_id), cents: x.cents, held: x.held })),
    vouchers: rows.filter((x) => x.voucher_id !== null).map((x) => ({ id: Number(x.voucher_id), held: x.held })),
    email: rows[0]?.email ?? null,
  };
}
