// What each code took off which order item (migration 0049): written in the order's transaction,
// read for the order answer, the invoice and the code-usage report.
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { orderDiscounts, promoCodes, singlePurposeVouchers } from '../schema/index.ts';

export type NewOrderDiscount = typeof orderDiscounts.$inferInsert;

export async function insertDiscounts(db: DbOrTx, rows: NewOrderDiscount[]): Promise<void> {
  if (rows.length) await db.insert(orderDiscounts).values(rows);
}

export interface DiscountRow {
  orderId: number;
  orderItemId: number;
  promoCode: string | null;
  voucherLast4: string | null;
  amountCents: number;
}

export async function discountsOfOrders(db: DbOrTx, orderIds: number[]): Promise<DiscountRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select({
      orderId: orderDiscounts.orderId, orderItemId: orderDiscounts.orderItemId, promoCode: promoCodes.code,
      voucherLast4: singlePurposeVouchers.codeLast4, amountCents: orderDiscounts.amountCents,
    })
    .from(orderDiscounts)
    .leftJoin(promoCodes, eq(promoCodes.id, orderDiscounts.promoCodeId))
    .leftJoin(singlePurposeVouchers, eq(singlePurposeVouchers.id, orderDiscounts.voucherId))
    .where(inArray(orderDiscounts.orderId, orderIds))
    .orderBy(asc(orderDiscounts.id));
}

export interface CodeUsageRow {
  code: string;
  kind: string;
  partnerAccountId: number | null;
  uses: number;
  orders: number;
  discountCents: number;
}

/** Per promo code: its use count, and the orders and discount total of uses in [from, to). */
export async function codeUsage(db: DbOrTx, from: Date, to: Date): Promise<CodeUsageRow[]> {
  const rows = await db
    .select({
      code: promoCodes.code, kind: promoCodes.kind, partnerAccountId: promoCodes.partnerAccountId, uses: promoCodes.uses,
      orders: sql<string>`count(distinct ${orderDiscounts.orderId})`, discountCents: sql<string>`coalesce(sum(${orderDiscounts.amountCents}), 0)`,
    })
    .from(orderDiscounts)
    .innerJoin(promoCodes, eq(promoCodes.id, orderDiscounts.promoCodeId))
    .where(and(gte(orderDiscounts.createdAt, from), lt(orderDiscounts.createdAt, to)))
    .groupBy(promoCodes.id)
    .orderBy(asc(promoCodes.code));
  return rows.map((r) => ({ ...r, orders: Number(r.orders), discountCents: Number(r.discountCents) }));
}

export interface DiscountLine {
  createdAt: Date;
  orderId: number;
  orderItemId: number;
  promoCode: string | null;
  voucherLast4: string | null;
  amountCents: number;
}

/** Every discount recorded in [from, to), oldest first: what each code did on each order. */
export async function discountsBetween(db: DbOrTx, from: Date, to: Date): Promise<DiscountLine[]> {
  return db
    .select({
      createdAt: orderDiscounts.createdAt, orderId: orderDiscounts.orderId, orderItemId: orderDiscounts.orderItemId,
      promoCode: promoCodes.code, voucherLast4: singlePurposeVouchers.codeLast4, amountCents: orderDiscounts.amountCents,
    })
    .from(orderDiscounts)
    .leftJoin(promoCodes, eq(promoCodes.id, orderDiscounts.promoCodeId))
    .leftJoin(singlePurposeVouchers, eq(singlePurposeVouchers.id, orderDiscounts.voucherId))
    .where(and(gte(orderDiscounts.createdAt, from), lt(orderDiscounts.createdAt, to)))
    .orderBy(asc(orderDiscounts.id));
}
