// POST /requests/:id/accept: staff turn a pending request into a finalized booking order. The
// order is made by the orders domain (pricing, bookability, capacity under the slot locks,
// barcodes) inside THIS transaction: createOrder's own transaction becomes a savepoint of it, so
// a sold-out slot (SLOT_SOLD_OUT) or any other refusal rolls back the order and leaves the
// request pending with nothing written. The request row stays locked throughout, so a second
// accept waits and then finds it accepted (REQUEST_NOT_PENDING): never two orders.
import { passOrderToAccount } from '../../db/repositories/requests.ts';
import type { Ctx } from '../context.ts';
import { createOrder } from '../orders/createOrder.ts';
import { assertStaff, decide } from './decide.ts';
import { reload, type RequestView } from './internal.ts';

export async function acceptRequest(ctx: Ctx, id: number): Promise<RequestView> {
  assertStaff(ctx);
  return decide(ctx, id, 'accepted', async (tx, row) => {
    const { items } = await reload(tx, row.id);
    // A transaction handle has Db's query API; its .transaction() opens a savepoint.
    const inTx: Ctx = { ...ctx, db: tx };
    const { order } = await createOrder(inTx, {
      items: items.map((i) => ({
        type: 'Tour' as const,
        attributes: { id: i.tourId, start_time: i.startAt.toISOString(), language_id: i.languageId, quantity: row.participants },
      })),
      ...(row.customerId !== null ? { customer_id: row.customerId } : {}),
      ...(row.notes ? { comment: row.notes } : {}),
      reference: `request ${row.id}`,
      finalize: true,
    });
    // Staff book it, the requester owns it: the reseller (or user) that asked sees the order
    // named by order_id among its own orders, and its documents with their events; staff still
    // see them through their museum scope.
    await passOrderToAccount(tx, order.id, row.accountId);
    return { orderId: order.id };
  });
}
