// GET /orders/:id (numeric id or order token). Invisible orders are 404, like unknown ones.
import type { Ctx } from '../context.ts';
import { findOrder, loadView, type OrderView } from './internal.ts';

export async function getOrder(ctx: Ctx, idOrToken: string): Promise<OrderView> {
  return loadView(ctx.db, ctx, await findOrder(ctx.db, ctx, idOrToken));
}
