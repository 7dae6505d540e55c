// POST /closures (docs/api-contract.md §13): shuts a period of a museum, or of some of its tickets, quotas,
// events or tours. Answers which live orders fall in it; with cancel_orders their items in the
// period are cancelled in the same transaction by the order-cancellation verb itself (capacity
// released exactly once, barcodes and documents voided, order.cancelled recorded there), and
// what was paid for them is reserved for refunds (docs/payments.md, "Refunds").
//
// The museum's schedule lock is taken EXCLUSIVE first: bookings take it shared when they write
// an item or hold (atrium_closure_guard, src/db/sql/atrium_closure_guard.sql), so a booking either commits before the
// live orders are read here (and is listed/cancelled) or is refused as CLOSED after this commits.
import { insertClosure, lockSchedule } from '../../db/repositories/schedules/closures.ts';
import { transaction } from '../../db/transaction.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { recordEvent } from '../events/record.ts';
import { assertStaff, failIfAny, writableMuseum } from '../catalog/writeSupport.ts';
import { cancelOrder } from '../orders/cancelOrder.ts';
import { actorOf } from '../payments/internal.ts';
import { reserveCancellationRefunds } from '../payments/refunds.ts';
import { affectedItems, summarise, type Affected } from './affected.ts';
import { checkClosure, type ClosureInput } from './closureInput.ts';
import { closureView, spanOf, type ClosureView } from './closureView.ts';

export async function createClosure(ctx: Ctx, input: ClosureInput): Promise<{ closure: ClosureView; affected: Affected }> {
  assertStaff(ctx);
  return transaction(ctx.db, async (tx) => {
    const museum = await writableMuseum(ctx, tx, input.museum_id);
    await lockSchedule(tx, museum.id);
    const { problems, values } = await checkClosure(tx, museum.id, museum.timeZone, input);
    failIfAny('closure', problems);
    const row = await insertClosure(tx, values!);
    const now = ctx.clock.now();
    const items = await affectedItems(tx, museum.id, museum.timeZone, spanOf(row), now);
    const affected = summarise(items);
    if (input.cancel_orders === true && items.length > 0) {
      // The cancel verb runs in a savepoint of this transaction, with system rights: the caller
      // may close the museum; which orders that touches is not limited by its own order rights.
      const inTx = { ...systemCtx(ctx), db: tx };
      // Money paid for the cancelled items goes back: its refunds are reserved here, so they
      // commit with the cancellation; the caller sends them after the commit (sendPendingRefunds),
      // the reconcile job if it stopped before.
      const by = actorOf(ctx, 'closure');
      for (const orderId of affected.order_ids) {
        await cancelOrder(inTx, String(orderId), { item_ids: items.filter((i) => i.orderId === orderId).map((i) => i.id) });
        await reserveCancellationRefunds(inTx, tx, orderId, 'museum closed', by);
      }
    }
    const closure = closureView(row);
    await recordEvent({ ...ctx, db: tx }, 'closure.created', {
      data: { closure, affected, cancel_orders: input.cancel_orders === true },
      museumIds: [museum.id],
    });
    return { closure, affected };
  });
}
