// GET /orders/barcode/:code: the order that a scanned barcode belongs to. A code with a wrong
// check digit is answered like an unknown one, without a query.
import { findOrderByBarcode } from '../../db/repositories/orders.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { normaliseBarcode } from './barcodes.ts';
import { loadView, orderScope, type OrderView } from './internal.ts';

export async function getOrderByBarcode(ctx: Ctx, code: string): Promise<OrderView> {
  const canonical = normaliseBarcode(code);
  if (!canonical) throw notFound('barcode');
  const order = await findOrderByBarcode(ctx.db, canonical, orderScope(ctx.principal));
  if (!order) throw notFound('barcode');
  return loadView(ctx.db, ctx, order);
}
