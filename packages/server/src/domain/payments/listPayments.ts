// GET /orders/:id/payments: the order's payments and refunds, and its payment status as the one
// rule in status.ts derives it.
import type { DbOrTx } from '../../db/client.ts';
import { paymentsOfOrder, refundsOfOrder } from '../../db/repositories/payments.ts';
import type { Ctx } from '../context.ts';
import { findOrder, type OrderRow } from '../orders/internal.ts';
import type { OrderPayments } from './json.ts';
import { moneyOf, paymentStatus } from './status.ts';

export async function paymentsOf(db: DbOrTx, order: Pick<OrderRow, 'id' | 'totalPriceCents' | 'currency'>): Promise<OrderPayments> {
  const payments = await paymentsOfOrder(db, order.id);
  const refunds = await refundsOfOrder(db, order.id);
  const money = moneyOf(payments, refunds);
  return {
    orderId: order.id,
    totalCents: order.totalPriceCents,
    currency: order.currency,
    status: paymentStatus(order.totalPriceCents, money),
    paidCents: money.paidCents,
    refundedCents: money.refundedCents,
    payments,
    refunds,
  };
}

export async function listPayments(ctx: Ctx, idOrToken: string): Promise<OrderPayments> {
  const order = await findOrder(ctx.db, ctx, idOrToken);
  return paymentsOf(ctx.db, order);
}
