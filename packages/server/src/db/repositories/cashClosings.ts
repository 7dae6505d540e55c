// Statements of the cash closing (Kassenabschluss, src/domain/staff/cashClosing.ts): what one
// cashier's box-office orders moved in a period (payments and refunds per method, the lines
// sold and the lines cancelled), and the closing records, which are only ever inserted (the
// table refuses changes: src/db/sql/cash_closings_immutable.sql).
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { cashClosings, deskGiftCardSales } from '../schema/index.ts';

export type CashClosingRow = typeof cashClosings.$inferSelect;

export type MethodSum = { method: string; cents: number; n: number };
export type LedgerLine = { price_cents: number; vat_pct: number; tax_included: boolean; sign: number };

// Orders that sell gift cards hold nothing else (ADR 0043). Their money is not a sale with VAT:
// the closing shows it on the gift-card line (giftCardSalesBy), and only there.
const sellsCards = sql`exists (select 1 from order_items gi where gi.order_id = o.id and gi.type = 'GiftCard')`;

/** Desk payments confirmed in [from, to) on orders the cashier sold, per method (gift-card orders left out). */
export async function deskPaymentsBy(db: DbOrTx, staffUserId: number, from: Date, to: Date): Promise<MethodSum[]> {
  return (await db.execute<MethodSum>(sql`
    select coalesce(p.method, 'cash') as method, sum(p.amount_cents)::int as cents, count(*)::int as n
      from payments p join orders o on o.id = p.order_id
     where o.staff_user_id = ${staffUserId} and p.provider = 'desk' and p.confirmed_at >= ${from} and p.confirmed_at < ${to}
       and p.state in ('confirmed', 'partially_refunded', 'refunded') and not ${sellsCards}
     group by 1 order by 1`)).rows;
}

/** What the cashier's orders of [from, to) left due for invoice: the sold total less the desk and gift-card payments. */
export async function invoicedBy(db: DbOrTx, staffUserId: number, from: Date, to: Date): Promise<MethodSum> {
  const [row] = (await db.execute<{ cents: number; n: number }>(sql`
    select coalesce(sum(sold.cents - coalesce(paid.cents, 0)), 0)::int as cents, count(*)::int as n
      from orders o
      join lateral (select sum(i.price_cents) as cents from order_items i where i.order_id = o.id) sold on true
      left join lateral (select sum(p.amount_cents) as cents from payments p where p.order_id = o.id and p.provider in ('desk', 'gift_card') and p.confirmed_at is not null) paid on true
     where o.staff_user_id = ${staffUserId} and o.created_at >= ${from} and o.created_at < ${to} and o.payment_method in ('invoice', 'split')
       and not ${sellsCards} and sold.cents > coalesce(paid.cents, 0)`)).rows;
  return { method: 'invoice', cents: row?.cents ?? 0, n: row?.n ?? 0 };
}

/**
 * Gift cards the cashier sold in [from, to), per method: on the gift-card form (no order) and as
 * basket lines (the desk payments of the cashier's gift-card orders). No VAT either way.
 */
export async function giftCardSalesBy(db: DbOrTx, staffUserId: number, from: Date, to: Date): Promise<MethodSum[]> {
  return (await db.execute<MethodSum>(sql`
    select method, sum(cents)::int as cents, sum(n)::int as n from (
      select method::text as method, amount_cents as cents, 1 as n
        from desk_gift_card_sales
       where staff_user_id = ${staffUserId} and created_at >= ${from} and created_at < ${to}
      union all
      select coalesce(p.method, 'cash'), p.amount_cents, 1
        from payments p join orders o on o.id = p.order_id
       where o.staff_user_id = ${staffUserId} and p.provider = 'desk' and p.confirmed_at >= ${from} and p.confirmed_at < ${to}
         and p.state in ('confirmed', 'partially_refunded', 'refunded') and ${sellsCards}
    ) s group by 1 order by 1`)).rows;
}

/** False when a sale with this key exists already (the caller rolls its card back). */
export async function insertDeskGiftCardSale(db: DbOrTx, row: typeof deskGiftCardSales.$inferInsert): Promise<boolean> {
  return (await db.insert(deskGiftCardSales).values(row).onConflictDoNothing().returning({ id: deskGiftCardSales.id })).length === 1;
}

export async function deskGiftCardSaleByKey(db: DbOrTx, key: string): Promise<{ giftCardId: number } | undefined> {
  const [r] = await db.select({ giftCardId: deskGiftCardSales.giftCardId }).from(deskGiftCardSales).where(eq(deskGiftCardSales.saleKey, key));
  return r;
}

/** Refunds made in [from, to) on desk payments of the cashier's orders, per payment method (failed ones left out). */
export async function deskRefundsBy(db: DbOrTx, staffUserId: number, from: Date, to: Date): Promise<MethodSum[]> {
  return (await db.execute<MethodSum>(sql`
    select coalesce(p.method, 'cash') as method, sum(r.amount_cents)::int as cents, count(*)::int as n
      from refunds r join payments p on p.id = r.payment_id join orders o on o.id = p.order_id
     where o.staff_user_id = ${staffUserId} and p.provider = 'desk' and r.state <> 'failed' and r.created_at >= ${from} and r.created_at < ${to}
     group by 1 order by 1`)).rows;
}

/** Lines the cashier sold in [from, to) (+1) and lines of the cashier's orders cancelled in it (−1); gift cards carry no VAT and are left out. */
export async function deskLedger(db: DbOrTx, staffUserId: number, from: Date, to: Date): Promise<LedgerLine[]> {
  return (await db.execute<LedgerLine>(sql`
    select i.price_cents, i.vat_pct::float8 as vat_pct, i.tax_included, 1 as sign
      from order_items i join orders o on o.id = i.order_id
     where o.staff_user_id = ${staffUserId} and o.created_at >= ${from} and o.created_at < ${to} and o.status <> 'pending' and i.type <> 'GiftCard'
    union all
    select i.price_cents, i.vat_pct::float8, i.tax_included, -1
      from order_items i join orders o on o.id = i.order_id
     where o.staff_user_id = ${staffUserId} and i.cancelled_at >= ${from} and i.cancelled_at < ${to} and i.type <> 'GiftCard'`)).rows;
}

export async function insertCashClosing(db: DbOrTx, row: typeof cashClosings.$inferInsert): Promise<CashClosingRow | null> {
  const [out] = await db.insert(cashClosings).values(row).onConflictDoNothing().returning();
  return out ?? null;
}

export async function cashClosingOf(db: DbOrTx, staffUserId: number, date: string): Promise<CashClosingRow | null> {
  const [row] = await db.select().from(cashClosings).where(and(eq(cashClosings.staffUserId, staffUserId), eq(cashClosings.businessDate, date)));
  return row ?? null;
}

export async function cashClosingById(db: DbOrTx, id: number): Promise<CashClosingRow | null> {
  const [row] = await db.select().from(cashClosings).where(eq(cashClosings.id, id));
  return row ?? null;
}

export async function recentCashClosings(db: DbOrTx, staffUserId: number | null, limit = 30): Promise<Array<CashClosingRow & { email: string }>> {
  return (await db.execute<CashClosingRow & { email: string } & Record<string, unknown>>(sql`
    select c.id, c.staff_user_id as "staffUserId", c.business_date::text as "businessDate", c.opening_float_cents as "openingFloatCents",
           c.expected_cash_cents as "expectedCashCents", c.counted_cash_cents as "countedCashCents", c.difference_cents as "differenceCents",
           c.summary, c.closed_at as "closedAt", c.closed_by as "closedBy", u.email
      from cash_closings c join staff_users u on u.id = c.staff_user_id
     where ${staffUserId === null ? sql`true` : sql`c.staff_user_id = ${staffUserId}`}
     order by c.business_date desc, c.id desc limit ${limit}`)).rows;
}

