// Shared lookups of the orders area: who may see which order, loading an order with its items
// and barcodes, and the status as shown (a pending order past expires_at is "expired" at once,
// no job needed: its capacity allocations expire at the same instant).
import type { DbOrTx } from '../../db/client.ts';
import { findOrderById, findVisibleOrder, type OrderItemRow, type OrderRow, type OrderScope } from '../../db/repositories/orders.ts';
import { barcodesOfItems, itemsWithZone } from '../../db/repositories/ordersQuery.ts';
import type { Ctx } from '../context.ts';
import { documentsOfOrders, type DocumentSummary } from '../documents/internal.ts';
import { entriesUsedByItem } from '../entry/entriesUsed.ts';
import { notFound } from '../errors.ts';
import { cardsOfItems, vouchersOfItems } from '../../db/repositories/orderCodeLines.ts';
import { discountsByOrder, type OrderDiscountView } from './discounts.ts';
import { hasRight, type Principal } from '../principal.ts';

export type { OrderItemRow, OrderRow, OrderScope };
export type OrderStatus = 'pending' | 'finalized' | 'cancelled' | 'expired';

export interface OrderItemView extends OrderItemRow {
  zone: string;
  eventId: number | null;
  barcodes: Array<{ id: number; code: string; status: string }>;
  /** Entries made with the item's barcodes (domain/entry). */
  entriesUsed: number;
  /** GiftCard and Voucher lines: the cards or vouchers issued (none before finalization). */
  codes?: SoldCode[];
}

/** A gift card or voucher an order sold, as its buyer may see it: never the code itself. */
export interface SoldCode {
  kind: 'gift_card' | 'voucher';
  id: number;
  last4: string;
  /** valid, void (cancelled with the order), redeemed (vouchers) */
  status: string;
}
export interface OrderView extends Omit<OrderRow, 'status'> {
  status: OrderStatus;
  items: OrderItemView[];
  documents: DocumentSummary[];
  /** What each code took off which item (absent where not loaded, e.g. event snapshots). */
  discounts?: OrderDiscountView[];
}

export function statusAt(order: Pick<OrderRow, 'status' | 'expiresAt'>, now: Date): OrderStatus {
  if (order.status === 'pending' && order.expiresAt && order.expiresAt <= now) return 'expired';
  return order.status as OrderStatus;
}

/**
 * The orders a caller may see. Resellers see only their own; users with orders:read see the
 * orders touching a museum of their scope (empty scope = every museum). Anybody else sees
 * nothing: out-of-scope orders are answered 404, never revealed.
 */
export function orderScope(p: Principal): OrderScope {
  if (p.kind !== 'account') return { kind: 'none' };
  if (p.access === 'reseller' || p.access === 'shop') return { kind: 'account', accountId: p.accountId };
  if (p.access === 'user' && hasRight(p, 'orders', 'read')) {
    return p.museumIds.length === 0 ? { kind: 'all' } : { kind: 'museums', museumIds: p.museumIds };
  }
  return { kind: 'none' };
}

/** Who receives an order's events (docs/webhooks.md): its owner and its museums. */
export function orderEventScope(order: Pick<OrderRow, 'id' | 'accountId' | 'museumIds'>) {
  return { subject: { type: 'order' as const, id: order.id }, accountId: order.accountId, museumIds: order.museumIds };
}

/** The caller's order, optionally locked FOR UPDATE (state changes serialise on the row). */
export async function findOrder(db: DbOrTx, ctx: Ctx, idOrToken: string | number, forUpdate = false): Promise<OrderRow> {
  const row = await findVisibleOrder(db, idOrToken, orderScope(ctx.principal), forUpdate);
  if (!row) throw notFound('order');
  return row;
}

/** Loads items (with museum zone and barcodes) for orders, in id order. */
export async function loadViews(db: DbOrTx, ctx: Ctx, rows: OrderRow[]): Promise<OrderView[]> {
  if (rows.length === 0) return [];
  const now = ctx.clock.now();
  const items = await itemsWithZone(db, rows.map((r) => r.id));
  const codes = items.length ? await barcodesOfItems(db, items.map((i) => i.item.id)) : [];
  const docs = await documentsOfOrders(db, now, rows.map((r) => r.id));
  const used = await entriesUsedByItem(db, items.map((i) => i.item.id));
  const discounts = await discountsByOrder(db, rows.map((r) => r.id));
  const sold = await soldCodes(db, items.filter((i) => i.item.type === 'GiftCard' || i.item.type === 'Voucher').map((i) => i.item.id));
  return rows.map((o) => ({
    ...o,
    discounts: discounts.get(o.id) ?? [],
    status: statusAt(o, now),
    documents: docs.get(o.id) ?? [],
    items: items
      .filter((i) => i.item.orderId === o.id)
      .map((i) => ({
        ...i.item,
        zone: i.zone,
        eventId: i.eventId,
        barcodes: codes.filter((c) => c.orderItemId === i.item.id).map(({ id, code, status }) => ({ id, code, status })),
        entriesUsed: used.get(i.item.id) ?? 0,
        ...(sold.has(i.item.id) ? { codes: sold.get(i.item.id)! } : {}),
      })),
  }));
}

/** The cards and vouchers sold by these items, per item. */
async function soldCodes(db: DbOrTx, itemIds: number[]): Promise<Map<number, SoldCode[]>> {
  const out = new Map<number, SoldCode[]>();
  if (itemIds.length === 0) return out;
  const add = (item: number | null, c: SoldCode) => item !== null && out.set(item, [...(out.get(item) ?? []), c]);
  for (const c of await cardsOfItems(db, itemIds)) add(c.orderItemId, { kind: 'gift_card', id: c.id, last4: c.codeLast4, status: c.voidedAt ? 'void' : 'valid' });
  for (const v of await vouchersOfItems(db, itemIds)) {
    add(v.orderItemId, { kind: 'voucher', id: v.id, last4: v.codeLast4, status: v.voidedAt ? 'void' : v.orderId !== null ? 'redeemed' : 'valid' });
  }
  return out;
}

export async function loadView(db: DbOrTx, ctx: Ctx, row: OrderRow): Promise<OrderView> {
  return (await loadViews(db, ctx, [row]))[0]!;
}

/** Re-reads one order by id (after a write) without the visibility filter. */
export async function reload(db: DbOrTx, ctx: Ctx, id: number): Promise<OrderView> {
  const row = await findOrderById(db, id);
  if (!row) throw notFound('order');
  return loadView(db, ctx, row);
}
