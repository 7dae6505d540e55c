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
  /** The earliest visit (item start) of the order, if it has items. */
  visitAt: Date | null;
}

export async function searchOrders(ctx: Ctx, input: { q: string; limit?: number }): Promise<OrderHit[]> {
  const q = input.q.trim().slice(0, 200);
  if (!q) return [];
  const limit = Math.min(input.limit ?? 50, 200);
  const search: OrderSearch = {};
  if (/^\d{1,9}$/.test(q)) search.orderId = Number(q);
  // Part of a number typed from a phone call or a crumpled ticket: order numbers from 3 digits,
  // barcodes from 6, by prefix.
  if (/^\d{3,9}$/.test(q)) search.orderIdPrefix = q;
  const digits = q.replace(/[\s-]/g, '');
  const code = normaliseBarcode(q);
  if (code) search.barcode = code;
  else if (/^\d{6,12}$/.test(digits)) search.barcodePrefix = digits;
  if (q.includes('@')) search.email = q;
  else if (q.length >= 2 && !/^[\d\s-]+$/.test(q)) {
    // "Mustermann", "Erika", "Erika Mustermann" or "Mustermann, Erika": surname or first name by
    // prefix, or both in either order; spelling variants are folded in SQL (atrium_search_text).
    const parts = q.split(/\s*,\s*|\s+/).filter(Boolean);
    search.name = q.replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
    if (parts.length === 2) search.fullName = [parts[0]!, parts[1]!];
    if (parts.length === 2 && q.includes(',')) search.name = parts[0]!;
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
    visitAt: r.visitAt,
  }));
}
