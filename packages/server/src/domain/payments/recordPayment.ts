// POST /orders/:id/payments for money taken outside Atrium: cash or a card terminal at the desk,
// a bank transfer received for an invoice. The payment is written confirmed and settles the order
// at once (settle.ts: a pending order that is now covered is finalized). A gift card pays through
// its own verb (domain/vouchers/redeem.ts), which needs the card's code.
import { transaction } from '../../db/transaction.ts';
import { insertPayment, paymentsOfOrder, type PaymentRow } from '../../db/repositories/payments.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { findOrder } from '../orders/internal.ts';
import { auditPayment, callerOf, providerOf } from './internal.ts';
import type { PaymentProviders } from './provider.ts';
import { settleOrder } from './settle.ts';
import { amountDue, assertPayable } from './startPayment.ts';

export interface RecordInput {
  provider: 'desk' | 'invoice';
  amount_cents: number;
  method?: string;
}

export async function recordPayment(ctx: Ctx, providers: PaymentProviders, idOrToken: string, input: RecordInput): Promise<PaymentRow> {
  const provider = providerOf(providers, input.provider);
  const createdBy = callerOf(ctx);
  return transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken);
    await paymentsOfOrder(tx, order.id, true);
    assertPayable(ctx, order);
    const due = await amountDue(tx, order);
    if (input.amount_cents > due) {
      throw new DomainError('PAYMENT_NOT_DUE', due > 0 ? `only ${due} cents are left to pay on this order` : 'nothing is left to pay on this order');
    }
    const now = ctx.clock.now();
    const payment = await insertPayment(tx, {
      orderId: order.id, provider: provider.name, amountCents: input.amount_cents, currency: order.currency, state: 'confirmed',
      method: input.method ?? (input.provider === 'invoice' ? 'transfer' : null), createdBy, createdAt: now, updatedAt: now, confirmedAt: now,
    });
    await auditPayment({ db: tx, clock: ctx.clock }, createdBy, 'payment.confirmed', payment, null, { state: 'confirmed', amount_cents: payment.amountCents, provider: provider.name });
    const settled = await settleOrder(ctx, tx, payment);
    // Recorded money that cannot settle the order is refused as a whole (nothing is written).
    if (settled.outcome === 'unsellable') throw new DomainError('PAYMENT_NOT_DUE', settled.reason);
    return payment;
  });
}
