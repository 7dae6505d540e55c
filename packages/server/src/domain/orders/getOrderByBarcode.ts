// GET /orders/barcode/:code: the order that a scanned barcode belongs to. A code with a wrong
// check digit is answered like an unknown one, without a query.
import { and, eq } from 'drizzle-orm';
import { barcodes, orderItems, orders } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { normaliseBarcode } from './barcodes.ts';
import { loadView, visibleOrders, type OrderView } from './internal.ts';

export async function getOrderByBarcode(ctx: Ctx, code: string): Promise<OrderView> {
  const canonical = normaliseBarcode(code);
  if (!canonical) throw notFound('barcode');
  const [row] = await ctx.db
    .select({ order: orders })
    .from(barcodes)
    .innerJoin(orderItems, eq(orderItems.id, barcodes.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(barcodes.code, canonical), visibleOrders(ctx.principal)));
  if (!row) throw notFound('barcode');
  return loadView(ctx.db, ctx, row.order);
}
