// What a confirmed payment does to its order, inside the confirming transaction (the order's
// payment rows are locked by the caller, so two confirmations of one order settle one after the
// other): when the money received covers the total, a pending order is finalized through the
// one finalize verb (barcodes, documents, mail and order.finalized follow as for any finalized
// order) and `order.paid` is recorded once, at the confirmation that crossed the total. An
// expired order is first revived: its places are claimed again through the capacity module
// (reviveOrder.ts), so late money buys them when they are still sellable. An order that can no
// longer be finalized (cancelled, closed, sold out, in the past) is reported as such: the caller
// refunds the payment once this transaction has committed. So is money beyond the total (a
// second payment page paid too): it is refunded, never kept.
import type { Tx } from '../../db/client.ts';
import { savepoint } from '../../db/transaction.ts';
import { paymentsOfOrder, refundsOfOrder, type PaymentRow } from '../../db/repositories/payments.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { finalizeOrder } from '../orders/finalizeOrder.ts';
import { findOrder, orderEventScope, statusAt } from '../orders/internal.ts';
import { reviveOrder } from '../orders/reviveOrder.ts';
import { moneyOf } from './status.ts';

export type Settlement = 'paid' | 'partial' | 'unsellable';

/** Why an order cannot take this money, for the refund's reason. */
export interface Unsellable {
  outcome: 'unsellable';
  reason: string;
}

// What the finalize and the capacity claim of a revived order answer when the places cannot be
// sold; VALIDATION_FAILED is the claim's answer for a product or date that no longer exists,
// CODE_EXHAUSTED a revived order's promo code or voucher taken by another order meanwhile.
const REFUSALS = new Set([
  'ORDER_EXPIRED', 'ORDER_CANCELLED', 'CLOSED', 'SLOT_SOLD_OUT', 'QUANTITY_ABOVE_CAPACITY', 'NOT_BOOKABLE',
  'DATE_IN_PAST', 'LANGUAGE_NOT_AVAILABLE', 'VALIDATION_FAILED', 'CODE_EXHAUSTED',
]);

/** `excessCents`: money kept beyond the total (the order was paid twice); it goes back. */
export async function settleOrder(ctx: Ctx, tx: Tx, payment: PaymentRow): Promise<{ outcome: 'paid'; excessCents: number } | { outcome: 'partial' } | Unsellable> {
  const sys = { ...systemCtx({ db: tx as unknown as Ctx['db'], clock: ctx.clock, config: ctx.config }), ...(ctx.testing ? { testing: ctx.testing } : {}) };
  const order = await findOrder(tx, sys, payment.orderId);
  const status = statusAt(order, ctx.clock.now());
  if (status === 'cancelled') return { outcome: 'unsellable', reason: 'order cancelled before the payment arrived' };
  const money = moneyOf(await paymentsOfOrder(tx, order.id), await refundsOfOrder(tx, order.id));
  const expired = status === 'expired';
  if (expired && money.netCents < order.totalPriceCents) return { outcome: 'unsellable', reason: 'order expired before the payment arrived' };
  if (money.netCents < order.totalPriceCents) return { outcome: 'partial' };
  if (status === 'pending' || expired) {
    try {
      // A savepoint: a refusal undoes the revival and leaves the confirmation itself in place.
      await savepoint(tx, async (sp) => {
        const inner = { ...sys, db: sp as unknown as Ctx['db'] };
        if (expired) await reviveOrder(sp, inner, order.id);
        await finalizeOrder(inner, String(order.id));
      });
    } catch (err) {
      if (err instanceof DomainError && REFUSALS.has(err.code)) {
        const why = expired ? 'order expired before the payment arrived and its places could not be claimed again' : 'order could not be finalized';
        return { outcome: 'unsellable', reason: `${why}: ${err.message}` };
      }
      throw err;
    }
  }
  // Recorded once: only the confirmation whose money crossed the total.
  if (money.netCents - payment.amountCents < order.totalPriceCents) {
    await recordEvent({ db: tx, clock: ctx.clock }, 'order.paid', orderEventScope(order));
  }
  return { outcome: 'paid', excessCents: money.netCents - order.totalPriceCents };
}
