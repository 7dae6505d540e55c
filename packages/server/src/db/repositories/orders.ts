// Statements on orders and their items. A new order is written by the SQL function order_place
// (src/db/sql/order_place.sql), alone or with others in one call (orderBatch.ts).
import { and, eq, inArray, sql, asc, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.ts';
import { rowFromJson, rowToJson } from '../json.ts';
import { barcodes, orderItems, orders } from '../schema/index.ts';
import { inTransaction } from '../transaction.ts';
import { orderBatches, type BatchOptions } from './ordersBatch.ts';

/** A document as order_place returns it. */
export interface DocumentJson { id: number; kind: string; status: string; filename: string; available_until: string }

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;

/**
 * Which orders a caller may see (decided by domain/orders/internal.ts orderScope): none, all,
 * one account's, or those touching one of some museums.
 */
export type OrderScope = { kind: 'none' } | { kind: 'all' } | { kind: 'account'; accountId: number } | { kind: 'museums'; museumIds: number[] };

/** The orders of a scope, as a condition on `orders`. */
export function visibleOrdersWhere(scope: OrderScope): SQL {
  if (scope.kind === 'none') return sql`false`;
  if (scope.kind === 'all') return sql`true`;
  if (scope.kind === 'account') return eq(orders.accountId, scope.accountId);
  return sql`${orders.museumIds} && ${sql.raw(`'{${scope.museumIds.map(Number).join(',')}}'::integer[]`)}`;
}

/** `:id` is a numeric id or the order token. */
function orderKey(idOrToken: string | number): SQL {
  const s = String(idOrToken);
  return /^\d{1,10}$/.test(s) && Number(s) <= 2_147_483_647 ? eq(orders.id, Number(s)) : eq(orders.token, s);
}

/** An order by id or token within a scope, optionally locked FOR UPDATE. */
export async function findVisibleOrder(db: DbOrTx, idOrToken: string | number, scope: OrderScope, forUpdate: boolean): Promise<OrderRow | null> {
  const q = db.select().from(orders).where(and(orderKey(idOrToken), visibleOrdersWhere(scope)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function findOrderById(db: DbOrTx, id: number): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row ?? null;
}

/** The order a barcode belongs to, within a scope. */
export async function findOrderByBarcode(db: DbOrTx, code: string, scope: OrderScope): Promise<OrderRow | null> {
  const [row] = await db
    .select({ order: orders })
    .from(barcodes)
    .innerJoin(orderItems, eq(orderItems.id, barcodes.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(barcodes.code, code), visibleOrdersWhere(scope)));
  return row?.order ?? null;
}

/** An order's items: id, status and price. */
export function itemsOfOrder(db: DbOrTx, orderId: number) {
  return db
    .select({ id: orderItems.id, status: orderItems.status, priceCents: orderItems.priceCents, unitPriceCents: orderItems.unitPriceCents, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
}

/** An order's active items: id, type and quantity. */
export function activeItemsOf(db: DbOrTx, orderId: number) {
  return db
    .select({ id: orderItems.id, type: orderItems.type, quantity: orderItems.quantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.status, 'active')));
}

/** Marks active items cancelled. */
export async function cancelItems(tx: Tx, itemIds: number[], at: Date): Promise<void> {
  await tx
    .update(orderItems)
    .set({ status: 'cancelled', cancelledAt: at })
    .where(and(inArray(orderItems.id, itemIds), eq(orderItems.status, 'active')));
}

/** Changes an order row (the columns given). */
export async function updateOrderRow(tx: Tx, orderId: number, values: Partial<typeof orders.$inferInsert>): Promise<void> {
  await tx.update(orders).set(values).where(eq(orders.id, orderId));
}

/**
 * Why an active item of the order meets a closure, or null: the closure guard every booking
 * insert passes (atrium_closure_hit, src/db/sql/atrium_closure_hit.sql), which takes each item's
 * museum schedule lock SHARED until the transaction ends.
 */
export async function closureHitOfOrder(tx: Tx, orderId: number): Promise<string | null> {
  const res = await tx.execute<{ reason: string | null }>(sql`
    select atrium_closure_hit(i.museum_id, i.ticket_id, i.event_date_id, i.tour_id, i.start_at) as reason
      from (select * from order_items where order_id = ${orderId} and status = 'active' order by museum_id, id) i`);
  return res.rows.find((r) => r.reason !== null)?.reason ?? null;
}

/**
 * Inserts barcodes; a code already taken is skipped (ON CONFLICT DO NOTHING keeps the transaction
 * alive, where a unique violation would abort it). Returns the codes inserted.
 */
export async function insertBarcodes(tx: Tx, rows: Array<{ orderItemId: number; code: string; status: string; createdAt: Date }>): Promise<string[]> {
  const inserted = await tx.insert(barcodes).values(rows).onConflictDoNothing({ target: barcodes.code }).returning({ code: barcodes.code });
  return inserted.map((r) => r.code);
}

/** Voids the valid barcodes of order items. */
export async function voidBarcodesOfItems(tx: Tx, orderItemIds: number[]): Promise<void> {
  await tx
    .update(barcodes)
    .set({ status: 'void' })
    .where(sql`${inArray(barcodes.orderItemId, orderItemIds)} and ${barcodes.status} = 'valid'`);
}

/** An account's order with this foreign_id, if any. */
export async function findOrderByForeignId(db: DbOrTx, accountId: number, foreignId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.foreignId, foreignId)));
  return row ?? null;
}

/** Product and start of an order's active items, in id order. */
export function activeItemStarts(db: DbOrTx, orderId: number) {
  return db
    .select({ ticketId: orderItems.ticketId, eventDateId: orderItems.eventDateId, tourId: orderItems.tourId, startAt: orderItems.startAt })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.status, 'active')))
    .orderBy(asc(orderItems.id));
}

/** What an order's active items claim: product, start, quantity (reviving an expired order). */
export function activeItemClaims(db: DbOrTx, orderId: number) {
  return db
    .select({
      id: orderItems.id, quantity: orderItems.quantity, ticketId: orderItems.ticketId, eventDateId: orderItems.eventDateId,
      tourId: orderItems.tourId, languageId: orderItems.languageId, startAt: orderItems.startAt,
    })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.status, 'active')))
    .orderBy(asc(orderItems.id));
}

/** What order_place takes besides the rows: see src/db/sql/order_place.sql. */
export interface OrderPlacement {
  order: typeof orders.$inferInsert;
  items: Array<typeof orderItems.$inferInsert>;
  /** Reservations consumed by the order. */
  consume: number[];
  /** Barcodes to issue per item (finalized orders), and candidate codes for them. */
  barcodes: number[];
  codes: string[];
  documents: unknown[];
  document: { available_until: string };
  /** The capacity claim (claimSpec). */
  claim: unknown;
}

export interface PlacedOrder {
  order: OrderRow;
  items: OrderItemRow[];
  barcodes: Array<typeof barcodes.$inferSelect>;
  documents: DocumentJson[];
}

/**
 * Writes a new order with order_place in one statement. Outside a transaction, with `batch`
 * given, the order may share its call and commit with others (ordersBatch.ts).
 */
export async function insertOrder(db: DbOrTx, p: OrderPlacement, batch: BatchOptions | null): Promise<PlacedOrder> {
  const json = JSON.stringify({ ...p, order: rowToJson(orders, p.order), items: p.items.map((i) => rowToJson(orderItems, i)) });
  type Raw = { order: Record<string, unknown>; items: Array<Record<string, unknown>>; barcodes: Array<Record<string, unknown>>; documents: DocumentJson[] };
  const placed =
    batch && !inTransaction(db)
      ? ((await orderBatches(db.$client, batch).place(json)) as Raw)
      : (await db.execute<{ placed: Raw }>(sql`select order_place(${json}::jsonb) as placed`)).rows[0]!.placed;
  return {
    order: rowFromJson(orders, placed.order),
    items: placed.items.map((j) => rowFromJson(orderItems, j)),
    barcodes: placed.barcodes.map((j) => rowFromJson(barcodes, j)),
    documents: placed.documents,
  };
}
