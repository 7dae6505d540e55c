// Every statement on payments and refunds (migration 0034). State changes are conditional
// updates (`where state in (…)`) that return the row only when they happened, so a repeated
// webhook or a second worker finds nothing to do instead of doing it twice.
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { payments, refunds } from '../schema/index.ts';

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
