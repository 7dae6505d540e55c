// GET /requests/:id. Invisible requests are 404, like unknown ones.
import type { Ctx } from '../context.ts';
import { findRequest, loadViews, type RequestView } from './internal.ts';

export async function getRequest(ctx: Ctx, id: number): Promise<RequestView> {
  return (await loadViews(ctx.db, [await findRequest(ctx.db, ctx, id)]))[0]!;
}
