// Statements on orders and their items. A new order is written by the SQL function order_place
// (src/db/sql/order_place.sql), alone or with others in one call (orderBatch.ts).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { rowFromJson, rowToJson } from '../json.ts';
import { barcodes, orderItems, orders } from '../schema/index.ts';
import { inTransaction } from '../transaction.ts';
import { orderBatches, type BatchOptions } from './ordersBatch.ts';

/** A document as order_place returns it. */
export interface DocumentJson { id: number; kind: string; status: string; filename: string; available_until: string }

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;

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
