// POST /orders/:id/finalize: makes a pending order binding. Safe to repeat: a finalized order is
// returned as it is.
import type { Ctx } from '../context.ts';
import { finalizeLocked } from './finalize.ts';
import { findOrder, reload, type OrderView } from './internal.ts';

export async function finalizeOrder(ctx: Ctx, idOrToken: string): Promise<OrderView> {
  const id = await ctx.db.transaction(async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    await finalizeLocked(tx, ctx, order);
    return order.id;
  });
  return reload(ctx.db, ctx, id);
}
