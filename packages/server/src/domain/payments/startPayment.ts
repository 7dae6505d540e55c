// Starting a payment on a provider's page (stripe, mollie, demo): a payment row is written
// `created` first, so that an attempt exists before the provider knows of it; the provider is
// asked outside any transaction; its reference is stored with the move to `pending`. The visitor
// then pays on the provider's page, and confirmPayment does the rest.
import { transaction } from '../../db/transaction.ts';
import { insertPayment, paymentsOfOrder, refundsOfOrder, transitionPayment, type PaymentRow } from '../../db/repositories/payments.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { orderCancelled, orderExpired } from '../orders/finalize.ts';
import { findOrder, statusAt, type OrderRow } from '../orders/internal.ts';
import { auditPayment, callerOf, failureText, providerOf } from './internal.ts';
import type { PaymentProviders, ProviderName } from './provider.ts';
import { moneyOf } from './status.ts';

export interface StartInput {
  provider: ProviderName;
  return_url: string;
}

/** What is still to pay on an order: its total less the money kept (received minus refunded). */
export async function amountDue(tx: Parameters<typeof paymentsOfOrder>[0], order: OrderRow): Promise<number> {
  const money = moneyOf(await paymentsOfOrder(tx, order.id), await refundsOfOrder(tx, order.id));
  return order.totalPriceCents - money.netCents;
}

export function assertPayable(ctx: Ctx, order: OrderRow): void {
  const status = statusAt(order, ctx.clock.now());
  if (status === 'expired') throw orderExpired();
  if (status === 'cancelled') throw orderCancelled();
}

export async function startPayment(ctx: Ctx, providers: PaymentProviders, idOrToken: string, input: StartInput): Promise<{ payment: PaymentRow; redirectUrl: string }> {
  const provider = providerOf(providers, input.provider);
  if (!provider.hosted) throw new DomainError('VALIDATION_FAILED', `provider "${input.provider}" has no payment page; record the money with POST /orders/:id/payments`);
  const createdBy = callerOf(ctx);
  const { order, payment } = await transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    assertPayable(ctx, order);
    const due = await amountDue(tx, order);
    if (due <= 0) throw new DomainError('PAYMENT_NOT_DUE', 'nothing is left to pay on this order');
    const now = ctx.clock.now();
    const payment = await insertPayment(tx, {
      orderId: order.id, provider: provider.name, amountCents: due, currency: order.currency, state: 'created', createdBy, createdAt: now, updatedAt: now,
    });
    await auditPayment({ db: tx, clock: ctx.clock }, createdBy, 'payment.created', payment, null, { state: 'created', amount_cents: due, provider: provider.name });
    return { order, payment };
  });
  let checkout;
  try {
    checkout = await provider.startCheckout({ id: order.id, token: order.token, currency: order.currency, expiresAt: order.expiresAt }, payment.amountCents, input.return_url, payment.id);
  } catch (err) {
    const failure = failureText(err);
    await transitionPayment(ctx.db, payment.id, ['created'], { state: 'failed', failure, updatedAt: ctx.clock.now() });
    throw new DomainError('PAYMENT_PROVIDER_ERROR', `the payment provider could not start the payment: ${failure}`);
  }
  const moved = await transaction(ctx.db, async (tx) => {
    const p = await transitionPayment(tx, payment.id, ['created'], { state: 'pending', providerRef: checkout.providerRef, updatedAt: ctx.clock.now() });
    if (p) await auditPayment({ db: tx, clock: ctx.clock }, createdBy, 'payment.pending', p, { state: 'created' }, { state: 'pending', provider_ref: p.providerRef });
    return p;
  });
  return { payment: moved ?? payment, redirectUrl: checkout.redirectUrl };
}
