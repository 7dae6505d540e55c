// Statements of the visitor shop's own data: its settings row, manage-booking tokens (by hash),
// what the cancellation rule of order items reads, and moving an item to another start.
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.ts';
import { orderItems, orderManageTokens, shopSettings } from '../schema/index.ts';

export async function shopSettingsRow(db: DbOrTx): Promise<{ settings: Record<string, unknown>; updatedAt: Date } | null> {
  const [row] = await db.select({ settings: shopSettings.settings, updatedAt: shopSettings.updatedAt }).from(shopSettings).where(eq(shopSettings.id, 1));
  return row ?? null;
}

/** The settings row, locked FOR UPDATE (a change reads before/after under the lock). */
export async function lockShopSettings(tx: Tx): Promise<Record<string, unknown> | null> {
  const [row] = await tx.select({ settings: shopSettings.settings }).from(shopSettings).where(eq(shopSettings.id, 1)).for('update');
  return row?.settings ?? null;
}

export async function saveShopSettings(db: DbOrTx, settings: Record<string, unknown>, now: Date): Promise<void> {
  await db
    .insert(shopSettings)
    .values({ id: 1, settings, updatedAt: now })
    .onConflictDoUpdate({ target: shopSettings.id, set: { settings, updatedAt: now } });
}

export async function insertManageToken(db: DbOrTx, row: { tokenHash: string; orderId: number; createdAt: Date }): Promise<void> {
  await db.insert(orderManageTokens).values(row);
}

/** Writes the hash unless it is stored already (the order's one link, issued again is a no-op). */
export async function ensureManageToken(db: DbOrTx, row: { tokenHash: string; orderId: number; createdAt: Date }): Promise<void> {
  await db.insert(orderManageTokens).values(row).onConflictDoNothing({ target: orderManageTokens.tokenHash });
}

/** How many links an order has (tests and the console read it; the tokens themselves are gone). */
export async function manageTokenCount(db: DbOrTx, orderId: number): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(orderManageTokens).where(eq(orderManageTokens.orderId, orderId));
  return r?.n ?? 0;
}

/** The order a token hash opens, with the stored hash (compared again by the caller). */
export async function orderOfManageToken(db: DbOrTx, tokenHash: string): Promise<{ orderId: number; tokenHash: string } | null> {
  const [row] = await db
    .select({ orderId: orderManageTokens.orderId, tokenHash: orderManageTokens.tokenHash })
    .from(orderManageTokens)
    .where(eq(orderManageTokens.tokenHash, tokenHash));
  return row ?? null;
}

export interface ItemRuleRow {
  id: number;
  type: string;
  status: string;
  startAt: Date;
  priceCents: number;
  quantity: number;
  ticketId: number | null;
  eventDateId: number | null;
  tourId: number | null;
  /** The product's own rule (ticket, the event of the date, tour); null = the shop default. */
  rule: string | null;
}

/** An order's items with the cancellation rule of the product each one books. */
export async function itemsWithRules(db: DbOrTx, orderId: number): Promise<ItemRuleRow[]> {
  const res = await db.execute<{
    id: string; type: string; status: string; start_at: string | Date; price_cents: number; quantity: number;
    ticket_id: number | null; event_date_id: number | null; tour_id: number | null; rule: string | null;
  }>(sql`
    select i.id, i.type, i.status, i.start_at, i.price_cents, i.quantity, i.ticket_id, i.event_date_id, i.tour_id,
           coalesce(t.cancellation_rule, e.cancellation_rule, tr.cancellation_rule) as rule
      from order_items i
      left join tickets t on t.id = i.ticket_id
      left join event_dates d on d.id = i.event_date_id
      left join events e on e.id = d.event_id
      left join tours tr on tr.id = i.tour_id
     where i.order_id = ${orderId}
     order by i.id`);
  return res.rows.map((r) => ({
    id: Number(r.id), type: r.type, status: r.status, startAt: new Date(r.start_at), priceCents: r.price_cents, quantity: r.quantity,
    ticketId: r.ticket_id, eventDateId: r.event_date_id, tourId: r.tour_id, rule: r.rule,
  }));
}

/** Moves an item to another start (its capacity is moved by the caller in the same transaction). */
export async function setItemStart(tx: Tx, itemId: number, startAt: Date, eventDateId?: number): Promise<void> {
  await tx.update(orderItems).set({ startAt, ...(eventDateId !== undefined ? { eventDateId } : {}) }).where(eq(orderItems.id, itemId));
}

/** Sets the visitor cancellation rule of a ticket, event or tour (null: the shop's default). */
export async function setCancellationRule(db: DbOrTx, kind: 'ticket' | 'event' | 'tour', id: number, rule: string | null): Promise<void> {
  const table = kind === 'ticket' ? sql`tickets` : kind === 'event' ? sql`events` : sql`tours`;
  await db.execute(sql`update ${table} set cancellation_rule = ${rule} where id = ${id}`);
}
