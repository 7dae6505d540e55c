// The console's order search: one box for an order id, a barcode, an email or a name. Only
// orders the caller may see (visibleOrders) are found; newest first, at most `limit`.
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { barcodes, customers, orderItems, orders } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { normaliseBarcode } from './barcodes.ts';
import { visibleOrders } from './internal.ts';

export interface OrderHit {
  id: number;
  status: string;
  createdAt: Date;
  totalPriceCents: number;
  currency: string;
  museumIds: number[];
  customerName: string | null;
  customerEmail: string | null;
}

const like = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function searchOrders(ctx: Ctx, input: { q: string; limit?: number }): Promise<OrderHit[]> {
  const q = input.q.trim().slice(0, 200);
  if (!q) return [];
  const limit = Math.min(input.limit ?? 50, 200);
  const alternatives: SQL[] = [];
  if (/^\d{1,9}$/.test(q)) alternatives.push(eq(orders.id, Number(q)));
  const code = normaliseBarcode(q);
  if (code) {
    const byCode = ctx.db
      .select({ id: orderItems.orderId })
      .from(barcodes)
      .innerJoin(orderItems, eq(orderItems.id, barcodes.orderItemId))
      .where(eq(barcodes.code, code));
    alternatives.push(inArray(orders.id, byCode));
  }
  if (q.includes('@')) alternatives.push(sql`lower(${customers.email}) like ${like(q)}`);
  else if (q.length >= 2) {
    // "Mustermann", "Erika", or "Erika Mustermann": surname or first name by prefix, or both.
    const parts = q.split(/\s+/);
    alternatives.push(sql`lower(${customers.surname}) like ${like(q)}`);
    alternatives.push(sql`lower(${customers.name}) like ${like(q)}`);
    if (parts.length === 2) alternatives.push(sql`lower(${customers.name}) like ${like(parts[0]!)} and lower(${customers.surname}) like ${like(parts[1]!)}`);
  }
  if (alternatives.length === 0) return [];
  const rows = await ctx.db
    .select({
      id: orders.id,
      status: orders.status,
      expiresAt: orders.expiresAt,
      createdAt: orders.createdAt,
      totalPriceCents: orders.totalPriceCents,
      currency: orders.currency,
      museumIds: orders.museumIds,
      name: customers.name,
      surname: customers.surname,
      email: customers.email,
    })
    .from(orders)
    .leftJoin(customers, eq(customers.id, orders.customerId))
    .where(and(visibleOrders(ctx.principal), sql`(${sql.join(alternatives, sql` or `)})`))
    .orderBy(desc(orders.id))
    .limit(limit);
  const now = ctx.clock.now();
  return rows.map((r) => ({
    id: r.id,
    status: r.status === 'pending' && r.expiresAt && r.expiresAt <= now ? 'expired' : r.status,
    createdAt: r.createdAt,
    totalPriceCents: r.totalPriceCents,
    currency: r.currency,
    museumIds: r.museumIds,
    customerName: r.surname !== null ? `${r.name ?? ''} ${r.surname}`.trim() : null,
    customerEmail: r.email,
  }));
}
