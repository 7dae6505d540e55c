// PUT /orders/:id: comment, reference and customer may change while the order is pending.
// A finalized order is binding (ORDER_FINALIZED, docs/errors.md).
import { updateOrderRow } from '../../db/repositories/orders.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { resolveOrderCustomer } from '../customers/resolveOrderCustomer.ts';
import { DomainError } from '../errors.ts';
import { orderCancelled, orderExpired } from './finalize.ts';
import { findOrder, reload, statusAt, type OrderView } from './internal.ts';

export interface UpdateOrderInput {
  comment?: string | null;
  reference?: string | null;
  customer?: object;
  customer_id?: number | string;
}

export async function updateOrder(ctx: Ctx, idOrToken: string, input: UpdateOrderInput): Promise<OrderView> {
  // The answer is read before the commit, from the transaction that made it.
  return transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    const now = ctx.clock.now();
    const status = statusAt(order, now);
    if (status === 'finalized') throw new DomainError('ORDER_FINALIZED', 'order is already finalized');
    if (status === 'cancelled') throw orderCancelled();
    if (status === 'expired') throw orderExpired();
    const customerId =
      input.customer !== undefined || input.customer_id !== undefined
        ? await resolveOrderCustomer(tx, ctx, {
            ...(input.customer !== undefined ? { customer: input.customer } : {}),
            ...(input.customer_id !== undefined ? { customer_id: input.customer_id } : {}),
          })
        : undefined;
    await updateOrderRow(tx, order.id, {
      updatedAt: now,
      ...(input.comment !== undefined ? { comment: input.comment } : {}),
      ...(input.reference !== undefined ? { reference: input.reference } : {}),
      ...(customerId !== undefined ? { customerId } : {}),
    });
    return reload(tx, ctx, order.id);
  });
}
