// Every statement on payments and refunds (migration 0034). State changes are conditional
// updates (`where state in (…)`) that return the row only when they happened, so a repeated
// webhook or a second worker finds nothing to do instead of doing it twice.
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { payments, refunds } from '../schema/index.ts';
import type { ReportRange } from './reports.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type PaymentState = PaymentRow['state'];
export type NewPayment = typeof payments.$inferInsert;
export type NewRefund = typeof refunds.$inferInsert;

export async function insertPayment(db: DbOrTx, row: NewPayment): Promise<PaymentRow> {
  const [p] = await db.insert(payments).values(row).returning();
  return p!;
}

export async function paymentById(db: DbOrTx, id: number, forUpdate = false): Promise<PaymentRow | undefined> {
  const q = db.select().from(payments).where(eq(payments.id, id));
  const [p] = forUpdate ? await q.for('update') : await q;
  return p;
}

export async function paymentByRef(db: DbOrTx, provider: PaymentRow['provider'], ref: string): Promise<PaymentRow | undefined> {
  const [p] = await db.select().from(payments).where(and(eq(payments.provider, provider), eq(payments.providerRef, ref)));
  return p;
}

/** Moves a payment on only from one of `from`; undefined when it was elsewhere already. */
export async function transitionPayment(
  db: DbOrTx,
  id: number,
  from: PaymentState[],
  patch: Partial<Pick<PaymentRow, 'state' | 'providerRef' | 'method' | 'confirmedAt' | 'failure'>> & { updatedAt: Date },
): Promise<PaymentRow | undefined> {
  const [p] = await db.update(payments).set(patch).where(and(eq(payments.id, id), inArray(payments.state, from))).returning();
  return p;
}

/** The order's payments in id order; FOR UPDATE serialises refunds of one order. */
export async function paymentsOfOrder(db: DbOrTx, orderId: number, forUpdate = false): Promise<PaymentRow[]> {
  const q = db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.id));
  return forUpdate ? q.for('update') : q;
}

export async function refundsOfOrder(db: DbOrTx, orderId: number): Promise<RefundRow[]> {
  return db
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(payments.orderId, orderId))
    .orderBy(asc(refunds.id))
    .then((rows) => rows.map((r) => r.refund));
}

export async function refundById(db: DbOrTx, id: number, forUpdate = false): Promise<RefundRow | undefined> {
  const q = db.select().from(refunds).where(eq(refunds.id, id));
  const [r] = forUpdate ? await q.for('update') : await q;
  return r;
}

/**
 * Reserves `cents` of a payment for a refund. The database check payments_refunded_within refuses
 * more than the payment's amount, whatever the caller computed.
 */
export async function reserveRefund(db: DbOrTx, paymentId: number, cents: number, now: Date): Promise<void> {
  await db
    .update(payments)
    .set({ refundedCents: sql`${payments.refundedCents} + ${cents}`, updatedAt: now })
    .where(eq(payments.id, paymentId));
}

export async function insertRefund(db: DbOrTx, row: NewRefund): Promise<RefundRow> {
  const [r] = await db.insert(refunds).values(row).returning();
  return r!;
}

export async function transitionRefund(
  db: DbOrTx,
  id: number,
  from: RefundRow['state'][],
  patch: Partial<Pick<RefundRow, 'state' | 'providerRef' | 'failure' | 'attempts'>> & { updatedAt: Date },
): Promise<RefundRow | undefined> {
  const [r] = await db.update(refunds).set(patch).where(and(eq(refunds.id, id), inArray(refunds.state, from))).returning();
  return r;
}

/** Sum of the done refunds of a payment. */
export async function refundedDoneCents(db: DbOrTx, paymentId: number): Promise<number> {
  const [r] = await db
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.state, 'done')));
  return r?.cents ?? 0;
}

/** Payments still waiting on a hosted page created before `before` (the reconcile job's work). */
export async function openHostedPayments(db: DbOrTx, before: Date, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(inArray(payments.state, ['created', 'pending']), lt(payments.createdAt, before), inArray(payments.provider, ['stripe', 'mollie', 'demo'])))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** Refunds that failed or never finished at the provider, oldest first. */
export async function pendingRefunds(db: DbOrTx, before: Date, limit: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.state, 'pending'), lt(refunds.createdAt, before)))
    .orderBy(asc(refunds.createdAt))
    .limit(limit);
}

// The reconciliation report (GET /reports/payments): money received and money returned, counted
// on the museum-local day it happened, in the zone of the order's first museum (a payment pays
// a whole order, so it belongs to one day, never split). A payment counts when it was confirmed
// (whatever happened to it since); a refund when it is done, on the day of its last change (the
// one that made it done: done is final). `lo`/`hi` narrow the scan; the local-date test is exact.
const MONEY_MOVES = (r: ReportRange) => sql`
  select 'payment' as kind, p.provider, p.id as payment_id, null::int as refund_id, p.order_id, p.provider_ref,
         p.amount_cents, p.currency, p.state, p.created_at, p.confirmed_at as at,
         (p.confirmed_at at time zone m.time_zone)::date as day
    from payments p join orders o on o.id = p.order_id join museums m on m.id = o.museum_ids[1]
   where p.confirmed_at >= ${r.lo}::timestamptz and p.confirmed_at < ${r.hi}::timestamptz and m.id = any(${sql.param(r.museumIds)}::int[])
  union all
  select 'refund', p.provider, p.id, f.id, p.order_id, f.provider_ref,
         f.amount_cents, p.currency, f.state, f.created_at, f.updated_at,
         (f.updated_at at time zone m.time_zone)::date
    from refunds f join payments p on p.id = f.payment_id join orders o on o.id = p.order_id join museums m on m.id = o.museum_ids[1]
   where f.state = 'done' and f.updated_at >= ${r.lo}::timestamptz and f.updated_at < ${r.hi}::timestamptz
     and m.id = any(${sql.param(r.museumIds)}::int[])`;

export interface PaymentsDayRow {
  provider: string;
  day: string;
  confirmed_count: number;
  confirmed_cents: number;
  refunded_count: number;
  refunded_cents: number;
}

/** Per provider and museum-local day: payments confirmed and refunds done, summed in SQL. */
export async function paymentsPerDay(db: DbOrTx, r: ReportRange): Promise<PaymentsDayRow[]> {
  const res = await db.execute<Record<keyof PaymentsDayRow, string>>(sql`
    select x.provider, to_char(x.day, 'YYYY-MM-DD') as day,
           count(*) filter (where x.kind = 'payment') as confirmed_count,
           coalesce(sum(x.amount_cents) filter (where x.kind = 'payment'), 0) as confirmed_cents,
           count(*) filter (where x.kind = 'refund') as refunded_count,
           coalesce(sum(x.amount_cents) filter (where x.kind = 'refund'), 0) as refunded_cents
      from (${MONEY_MOVES(r)}) x
     where x.day between ${r.from}::date and ${r.to}::date
     group by x.provider, x.day
     order by x.day, x.provider`);
  return res.rows.map((x) => ({
    provider: x.provider, day: x.day,
    confirmed_count: Number(x.confirmed_count), confirmed_cents: Number(x.confirmed_cents),
    refunded_count: Number(x.refunded_count), refunded_cents: Number(x.refunded_cents),
  }));
}

export interface MoneyMoveRow {
  kind: 'payment' | 'refund';
  provider: string;
  day: string;
  payment_id: number;
  refund_id: number | null;
  order_id: number;
  provider_ref: string | null;
  amount_cents: number;
  currency: string;
  state: string;
  created_at: Date;
  at: Date;
}

/** Every payment confirmed and refund done in the range, one row each, in time order (the CSV). */
export async function moneyMoves(db: DbOrTx, r: ReportRange): Promise<MoneyMoveRow[]> {
  const res = await db.execute<Omit<MoneyMoveRow, 'day'> & { day: string }>(sql`
    select x.kind, x.provider, to_char(x.day, 'YYYY-MM-DD') as day, x.payment_id, x.refund_id, x.order_id, x.provider_ref,
           x.amount_cents, x.currency, x.state, x.created_at, x.at
      from (${MONEY_MOVES(r)}) x
     where x.day between ${r.from}::date and ${r.to}::date
     order by x.at, x.kind, x.payment_id, x.refund_id`);
  return res.rows.map((x) => ({ ...x, created_at: new Date(x.created_at), at: new Date(x.at) }));
}
