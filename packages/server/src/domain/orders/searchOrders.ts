// The console's order search: one box for an order id, a barcode, an email or a name. Only
// orders the caller may see (orderScope) are found; newest first, at most `limit`.
import { searchOrderRows, type OrderSearch } from '../../db/repositories/ordersQuery.ts';
import type { Ctx } from '../context.ts';
import { normaliseBarcode } from './barcodes.ts';
import { orderScope } from './internal.ts';

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

export async function searchOrders(ctx: Ctx, input: { q: string; limit?: number }): Promise<OrderHit[]> {
  const q = input.q.trim().slice(0, 200);
  if (!q) return [];
  const limit = Math.min(input.limit ?? 50, 200);
  const search: OrderSearch = {};
  if (/^\d{1,9}$/.test(q)) search.orderId = Number(q);
  const code = normaliseBarcode(q);
  if (code) search.barcode = code;
  if (q.includes('@')) search.email = q;
  else if (q.length >= 2) {
    // "Mustermann", "Erika", or "Erika Mustermann": surname or first name by prefix, or both.
    const parts = q.split(/\s+/);
    search.name = q;
    if (parts.length === 2) search.fullName = [parts[0]!, parts[1]!];
  }
  const rows = await searchOrderRows(ctx.db, orderScope(ctx.principal), search, limit);
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
