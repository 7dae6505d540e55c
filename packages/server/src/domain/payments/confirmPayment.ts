// The one confirm verb (docs/payments.md, "How a payment becomes a paid order"). The provider's
// webhook, the visitor's return to the shop and the reconcile job all call it, in any order and
// any number of times. It never trusts what it is told: it asks the provider about the attempt,
// then, in one transaction with the order's payment rows locked, moves the payment on by a
// conditional update (so it is confirmed once) and settles the order (settle.ts; an expired
// order's places are claimed again when still sellable). Money that can no longer buy its places
// (the order was cancelled, its slot is sold out or closed) is refunded in full at once, with the reason on the payment and in the refund's events; the refund is
// reserved in the confirming transaction, so it cannot be lost between the two steps.
import type { Tx } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { paymentById, paymentByRef, paymentsOfOrder, transitionPayment, type PaymentRow, type RefundRow } from '../../db/repositories/payments.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { findOrder, orderEventScope } from '../orders/internal.ts';
import { actorOf, auditPayment, providerOf, type ChangeSource } from './internal.ts';
import { serializePayment } from './json.ts';
import type { PaymentProviders, ProviderName, ProviderStatus } from './provider.ts';
import { executeRefund, reserveFullRefund } from './refunds.ts';
import { settleOrder } from './settle.ts';

export type ConfirmKey = { paymentId: number } | { provider: ProviderName; providerRef: string };

export interface ConfirmResult {
  payment: PaymentRow;
  /** What this call changed: nothing, or the payment's new state. */
  changed: boolean;
  /** The refund reserved because the order could not take the money; sent after the commit. */
  lateRefund?: RefundRow;
}

const OPEN = ['created', 'pending'] as const;
const FINAL = ['confirmed', 'partially_refunded', 'refunded'];

export async function confirmPayment(ctx: Ctx, providers: PaymentProviders, key: ConfirmKey, source: ChangeSource): Promise<ConfirmResult> {
  const found = 'paymentId' in key ? await paymentById(ctx.db, key.paymentId) : await paymentByRef(ctx.db, key.provider, key.providerRef);
  if (!found) throw notFound('payment');
  // Received money is final here; later changes are refunds, which have their own verb.
  if (FINAL.includes(found.state) || !found.providerRef) return { payment: found, changed: false };
  const status = await providerOf(providers, found.provider).fetchStatus(found.providerRef);
  const actor = actorOf(ctx, source);
  const result = await transaction(ctx.db, async (tx) => applyStatus(ctx, tx, found.id, status, actor));
  if (result.lateRefund) {
    await executeRefund(ctx, providers, result.lateRefund, 'late-payment');
    return { ...result, payment: (await paymentById(ctx.db, found.id))! };
  }
  return result;
}

async function applyStatus(ctx: Ctx, tx: Tx, paymentId: number, status: ProviderStatus, actor: string): Promise<ConfirmResult> {
  const now = ctx.clock.now();
  const seen = (await paymentById(tx, paymentId))!;
  // Every payment row of the order, locked: confirmations and refunds of one order take turns.
  await paymentsOfOrder(tx, seen.orderId, true);
  const before = (await paymentById(tx, paymentId))!;
  const audit = (row: PaymentRow) =>
    auditPayment({ db: tx, clock: ctx.clock }, actor, `payment.${row.state}`, row, { state: before.state }, { state: row.state, failure: row.failure });
  if (status.state === 'paid') {
    // The provider's word on money is final: even an attempt marked failed becomes confirmed.
    const moved = await transitionPayment(tx, paymentId, [...OPEN, 'failed', 'canceled'], {
      state: 'confirmed', confirmedAt: now, updatedAt: now, failure: null, ...(status.method ? { method: status.method } : {}),
    });
    if (!moved) return { payment: before, changed: false };
    await audit(moved);
    const settled = await settleOrder(ctx, tx, moved);
    const late =
      settled.outcome === 'unsellable'
        ? await reserveFullRefund(ctx, tx, moved.id, settled.reason, 'late-payment')
        : settled.outcome === 'paid' && settled.excessCents > 0
          ? await reserveFullRefund(ctx, tx, moved.id, 'paid twice: the order was already paid', 'late-payment', settled.excessCents)
          : null;
    return { payment: moved, changed: true, ...(late ? { lateRefund: late } : {}) };
  }
  if (status.state === 'failed' || status.state === 'canceled') {
    const moved = await transitionPayment(tx, paymentId, [...OPEN], { state: status.state, updatedAt: now, failure: status.failure ?? null });
    if (!moved) return { payment: before, changed: false };
    await audit(moved);
    const order = await findOrder(tx, systemCtx({ db: tx as unknown as Ctx['db'], clock: ctx.clock, config: ctx.config }), moved.orderId);
    await recordEvent({ db: tx, clock: ctx.clock }, 'payment.failed', {
      ...orderEventScope(order),
      data: { payment: serializePayment(moved, ctx.config.zone), order_id: order.id },
    });
    return { payment: moved, changed: true };
  }
  const moved = await transitionPayment(tx, paymentId, ['created'], { state: 'pending', updatedAt: now });
  if (moved) await audit(moved);
  return { payment: moved ?? before, changed: moved !== undefined };
}

/**
 * The visitor is back from the provider's page (the shop calls this on its return URL): the
 * caller must see the order; the payment is then confirmed exactly as a webhook would.
 */
export async function confirmOnReturn(ctx: Ctx, providers: PaymentProviders, idOrToken: string, paymentId: number): Promise<ConfirmResult> {
  const order = await findOrder(ctx.db, ctx, idOrToken);
  const p = await paymentById(ctx.db, paymentId);
  if (!p || p.orderId !== order.id) throw notFound('payment');
  return confirmPayment(ctx, providers, { paymentId }, 'return-url');
}
