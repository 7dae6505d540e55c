// Refunds (POST /orders/:id/refunds, cancellations with "refund": true, late money). Two steps,
// so that no lock is held while a provider is asked: (1) in a transaction, the order's payment
// rows are locked FOR UPDATE, what is left to refund is computed from them, and each refund is
// inserted `pending` with its amount reserved on the payment (refunded_cents, which the database
// keeps within the payment's amount); (2) after the commit, each refund is sent to its provider
// and marked `done` or `failed`. Two refunds at once therefore never return more than was paid:
// the second one waits for the first one's rows and sees its reservation. A failed refund keeps
// its reservation (the money is still owed) until it is retried. A provider that refused gets the
// retry under a new idempotency key (it keeps answering the old one with the refusal); one that
// did not answer at all gets it under the same key, so a refund it did make is not made twice.
import type { Tx } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import {
  insertRefund, paymentById, paymentsOfOrder, refundById, refundsOfOrder, refundedDoneCents, reserveRefund, transitionPayment, transitionRefund,
  type PaymentRow, type RefundRow,
} from '../../db/repositories/payments.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { findOrder, orderEventScope } from '../orders/internal.ts';
import { refundToCard } from './giftCardRefund.ts';
import { actorOf, auditPayment, callerOf, failureText, providerOf, refundTooLarge, type ChangeSource } from './internal.ts';
import { serializePayment, serializeRefund } from './json.ts';
import type { PaymentProviders } from './provider.ts';
import { received, stateAfterRefunds } from './status.ts';

export interface RefundInput {
  amount_cents?: number;
  reason: string;
}

/** What may still be refunded of a payment: received, minus what refunds already reserved. */
export function refundable(p: PaymentRow): number {
  return received(p) ? p.amountCents - p.refundedCents : 0;
}

/**
 * Inserts pending refunds for `amount` (all that is refundable when undefined) across the order's
 * received payments, newest first, inside `tx`. Throws REFUND_EXCEEDS_PAID when there is less.
 */
async function reserveRefunds(ctx: Ctx, tx: Tx, orderId: number, amount: number | undefined, reason: string, createdBy: string): Promise<RefundRow[]> {
  const unlocked = ctx.testing?.disablePaymentLocks === true;
  const payments = await paymentsOfOrder(tx, orderId, !unlocked);
  const available = payments.reduce((s, p) => s + refundable(p), 0);
  const want = amount ?? available;
  if (want <= 0 || want > available) throw refundTooLarge(available);
  const now = ctx.clock.now();
  const out: RefundRow[] = [];
  let left = want;
  for (const p of [...payments].reverse()) {
    const part = Math.min(left, refundable(p));
    if (part <= 0) continue;
    if (!unlocked) await reserveRefund(tx, p.id, part, now);
    const r = await insertRefund(tx, { paymentId: p.id, amountCents: part, state: 'pending', reason, createdBy, createdAt: now, updatedAt: now });
    await auditPayment({ db: tx, clock: ctx.clock }, createdBy, 'refund.created', r, null, { amount_cents: part, payment_id: p.id, reason });
    out.push(r);
    left -= part;
    if (left === 0) break;
  }
  return out;
}

/** Sends one pending refund to its provider (outside any transaction) and records the outcome. */
export async function executeRefund(ctx: Ctx, providers: PaymentProviders, refund: RefundRow, actor: string): Promise<RefundRow> {
  const payment = (await paymentById(ctx.db, refund.paymentId))!;
  let outcome: { state: 'done' | 'failed' | 'pending'; providerRef?: string; failure?: string };
  try {
    // A gift card is no outside provider: its money goes back onto the card, here.
    if (payment.provider === 'gift_card') outcome = await refundToCard(ctx, payment, refund);
    else outcome = await providerOf(providers, payment.provider).refund(payment.providerRef ?? `payment-${payment.id}`, refund.amountCents, `atrium-refund-${refund.id}-${refund.attempts}`);
  } catch (err) {
    // No answer: whether the money went back is unknown. The refund stays pending, saying why.
    const unknown = await transitionRefund(ctx.db, refund.id, ['pending'], { failure: `no answer from the provider: ${failureText(err)}`, updatedAt: ctx.clock.now() });
    return unknown ?? refund;
  }
  if (outcome.state === 'pending') return refund; // accepted; the provider finishes it
  return transaction(ctx.db, async (tx) => {
    const now = ctx.clock.now();
    const moved = await transitionRefund(tx, refund.id, ['pending'], {
      state: outcome.state as 'done' | 'failed',
      updatedAt: now,
      ...(outcome.providerRef ? { providerRef: outcome.providerRef } : {}),
      failure: outcome.state === 'failed' ? (outcome.failure ?? 'refused by the provider') : null,
    });
    if (!moved) return (await refundById(tx, refund.id))!;
    await auditPayment({ db: tx, clock: ctx.clock }, actor, `refund.${moved.state}`, moved, { state: 'pending' }, { state: moved.state, failure: moved.failure });
    const locked = (await paymentById(tx, payment.id, true))!;
    let after = locked;
    if (moved.state === 'done') {
      const state = stateAfterRefunds(locked.amountCents, await refundedDoneCents(tx, locked.id));
      after = (await transitionPayment(tx, locked.id, ['confirmed', 'partially_refunded'], { state, updatedAt: now })) ?? locked;
    }
    const order = await findOrder(tx, systemCtx({ db: tx as unknown as Ctx['db'], clock: ctx.clock, config: ctx.config }), locked.orderId);
    await recordEvent({ db: tx, clock: ctx.clock }, moved.state === 'done' ? 'refund.succeeded' : 'refund.failed', {
      ...orderEventScope(order),
      data: { refund: serializeRefund(moved, ctx.config.zone), payment: serializePayment(after, ctx.config.zone), order_id: order.id },
    });
    return moved;
  });
}

/** POST /orders/:id/refunds. */
export async function refundOrder(ctx: Ctx, providers: PaymentProviders, idOrToken: string, input: RefundInput, source: ChangeSource = 'api'): Promise<RefundRow[]> {
  const createdBy = actorOf(ctx, source);
  const pending = await transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken);
    return reserveRefunds(ctx, tx, order.id, input.amount_cents, input.reason, createdBy);
  });
  const out: RefundRow[] = [];
  for (const r of pending) out.push(await executeRefund(ctx, providers, r, createdBy));
  return out;
}

/**
 * Inside a cancellation's transaction (`tx`, order `orderId` already cancelled there): reserves as
 * pending refunds what was kept beyond the order's new total (the cancelled items' amount, less
 * what earlier refunds already returned). Nothing when the order was not paid; repeating it
 * reserves nothing the second time. The caller sends them after the commit (sendPendingRefunds);
 * the reconcile job sends any it did not.
 */
export async function reserveCancellationRefunds(ctx: Ctx, tx: Tx, orderId: number, reason: string, createdBy: string): Promise<RefundRow[]> {
  const order = await findOrder(tx, systemCtx({ db: tx as unknown as Ctx['db'], clock: ctx.clock, config: ctx.config }), orderId);
  const payments = await paymentsOfOrder(tx, order.id, ctx.testing?.disablePaymentLocks !== true);
  const kept = payments.reduce((s, p) => s + (received(p) ? p.amountCents - p.refundedCents : 0), 0);
  const excess = kept - order.totalPriceCents;
  if (excess <= 0) return [];
  return reserveRefunds(ctx, tx, order.id, excess, reason, createdBy);
}

/** After a cancellation with "refund": true: what was kept beyond the order's new total goes back. */
export async function refundAfterCancellation(ctx: Ctx, providers: PaymentProviders, idOrToken: string): Promise<RefundRow[]> {
  const createdBy = actorOf(ctx, 'cancellation');
  const pending = await transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken);
    return reserveCancellationRefunds(ctx, tx, order.id, 'items cancelled', createdBy);
  });
  const out: RefundRow[] = [];
  for (const r of pending) out.push(await executeRefund(ctx, providers, r, createdBy));
  return out;
}

/**
 * Sends the refunds still pending (never sent) of these orders, after the transaction that
 * reserved them committed (a closure that cancelled paid orders). One a provider did not answer
 * is left to the retry and the reconcile job.
 */
export async function sendPendingRefunds(ctx: Ctx, providers: PaymentProviders, orderIds: number[]): Promise<RefundRow[]> {
  const out: RefundRow[] = [];
  for (const orderId of orderIds) {
    for (const r of await refundsOfOrder(ctx.db, orderId)) {
      if (r.state === 'pending' && r.failure === null) out.push(await executeRefund(ctx, providers, r, r.createdBy));
    }
  }
  return out;
}

/**
 * POST /orders/:id/refunds/:refund_id/retry: a refused refund is sent again as a new attempt; one
 * the provider never answered is sent again as the same attempt (same idempotency key).
 */
export async function retryRefund(ctx: Ctx, providers: PaymentProviders, idOrToken: string, refundId: number): Promise<RefundRow> {
  const actor = callerOf(ctx);
  const refund = await transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken);
    const r = await refundById(tx, refundId, true);
    const p = r ? await paymentById(tx, r.paymentId) : undefined;
    if (!r || !p || p.orderId !== order.id) throw notFound('refund');
    const unanswered = r.state === 'pending' && r.failure !== null;
    if (r.state !== 'failed' && !unanswered) {
      throw new DomainError('REFUND_NOT_RETRYABLE', `refund is ${r.state}; only a failed or unanswered refund can be retried`);
    }
    const moved = (await transitionRefund(tx, r.id, [r.state], {
      state: 'pending', failure: null, attempts: r.state === 'failed' ? r.attempts + 1 : r.attempts, updatedAt: ctx.clock.now(),
    }))!;
    await auditPayment({ db: tx, clock: ctx.clock }, actor, 'refund.retried', moved, { state: r.state }, { state: 'pending', attempts: moved.attempts });
    return moved;
  });
  return executeRefund(ctx, providers, refund, actor);
}

/**
 * Late money (settle.ts): the whole payment (or, for money paid twice, the excess) is reserved
 * for a refund inside the confirming
 * transaction, so the decision commits with the confirmation; the caller sends it after the
 * commit, and the reconcile job sends it if the process stopped in between.
 */
export async function reserveFullRefund(ctx: Ctx, tx: Tx, paymentId: number, reason: string, actor: string, upTo?: number): Promise<RefundRow | null> {
  const p = (await paymentById(tx, paymentId, true))!;
  const amount = Math.min(refundable(p), upTo ?? Number.MAX_SAFE_INTEGER);
  if (amount === 0) return null;
  const now = ctx.clock.now();
  await transitionPayment(tx, p.id, [p.state], { failure: reason, updatedAt: now });
  await reserveRefund(tx, p.id, amount, now);
  const r = await insertRefund(tx, { paymentId: p.id, amountCents: amount, state: 'pending', reason, createdBy: actor, createdAt: now, updatedAt: now });
  await auditPayment({ db: tx, clock: ctx.clock }, actor, 'refund.created', r, null, { amount_cents: amount, payment_id: p.id, reason });
  return r;
}
