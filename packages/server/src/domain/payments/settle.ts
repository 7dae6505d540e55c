// What a confirmed payment does to its order, inside the confirming transaction (the order's
// payment rows are locked by the caller, so two confirmations of one order settle one after the
// other): when the money received covers the total, a pending order is finalized through the
// one finalize verb (barcodes, documents, mail and order.finalized follow as for any finalized
// order) and `order.paid` is recorded once, at the confirmation that crossed the total. An order
// that can no longer be finalized (expired, cancelled, closed, sold out) is reported as such:
// the caller refunds the payment once this transaction has committed. So is money beyond the
// total (a second payment page paid too): it is refunded, never kept.
import type { Tx } from '../../db/client.ts';
import { paymentsOfOrder, refundsOfOrder, type PaymentRow } from '../../db/repositories/payments.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { finalizeOrder } from '../orders/finalizeOrder.ts';
import { findOrder, orderEventScope, statusAt } from '../orders/internal.ts';
import { moneyOf } from './status.ts';

export type Settlement = 'paid' | 'partial' | 'unsellable';

/** Why an order cannot take this money, for the refund's reason. */
export interface Unsellable {
  outcome: 'unsellable';
  reason: string;
}

const REFUSALS = new Set(['ORDER_EXPIRED', 'ORDER_CANCELLED', 'CLOSED', 'SLOT_SOLD_OUT', 'QUANTITY_ABOVE_CAPACITY', 'NOT_BOOKABLE']);

/** `excessCents`: money kept beyond the total (the order was paid twice); it goes back. */
export async function settleOrder(ctx: Ctx, tx: Tx, payment: PaymentRow): Promise<{ outcome: 'paid'; excessCents: number } | { outcome: 'partial' } | Unsellable> {
  const sys = { ...systemCtx({ db: tx as unknown as Ctx['db'], clock: ctx.clock, config: ctx.config }), ...(ctx.testing ? { testing: ctx.testing } : {}) };
  const order = await findOrder(tx, sys, payment.orderId);
  const status = statusAt(order, ctx.clock.now());
  if (status === 'cancelled' || status === 'expired') {
    return { outcome: 'unsellable', reason: `order ${status} before the payment arrived` };
  }
  const money = moneyOf(await paymentsOfOrder(tx, order.id), await refundsOfOrder(tx, order.id));
  if (money.netCents < order.totalPriceCents) return { outcome: 'partial' };
  if (status === 'pending') {
    try {
      // A savepoint: a refusal leaves the confirmation itself in place.
      await finalizeOrder(sys, String(order.id));
    } catch (err) {
      if (err instanceof DomainError && REFUSALS.has(err.code)) return { outcome: 'unsellable', reason: `order could not be finalized: ${err.message}` };
      throw err;
    }
  }
  // Recorded once: only the confirmation whose money crossed the total.
  if (money.netCents - payment.amountCents < order.totalPriceCents) {
    await recordEvent({ db: tx, clock: ctx.clock }, 'order.paid', orderEventScope(order));
  }
  return { outcome: 'paid', excessCents: money.netCents - order.totalPriceCents };
}
