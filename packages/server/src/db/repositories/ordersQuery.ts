// Reads of orders for answers and lists: items with their museum's zone, barcodes, the filtered
// list, the console's search, and what the console shows beside an order.
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { barcodes, customers, eventDates, museums, orderItems, orders } from '../schema/index.ts';
import { nameStarts } from './nameSearch.ts';
import { visibleOrdersWhere, type OrderRow, type OrderScope } from './orders.ts';

/** Items of orders with their museum's zone and event, in id order. */
export function itemsWithZone(db: DbOrTx, orderIds: number[]) {
  return db
    .select({ item: orderItems, zone: museums.timeZone, eventId: eventDates.eventId })
    .from(orderItems)
    .innerJoin(museums, eq(museums.id, orderItems.museumId))
    .leftJoin(eventDates, eq(eventDates.id, orderItems.eventDateId))
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.id));
}

/** Barcodes of order items, in id order. */
export function barcodesOfItems(db: DbOrTx, itemIds: number[]) {
  return db
    .select({ id: barcodes.id, orderItemId: barcodes.orderItemId, code: barcodes.code, status: barcodes.status })
    .from(barcodes)
    .where(inArray(barcodes.orderItemId, itemIds))
    .orderBy(asc(barcodes.id));
}

/** Filters of GET /orders; every one given must hold. */
export interface OrderFilter {
  foreignId?: string;
  /** The status as shown at `now` (expired = pending past expires_at). */
  status?: { is: string; now: Date };
  createdFrom?: Date;
  /** Exclusive (the start of the day after a date bound). */
  createdBefore?: Date;
  /** Inclusive (a timestamp bound). */
  createdUntil?: Date;
  updatedSince?: Date;
}

function statusWhere(status: string, now: Date): SQL {
  const lapsed = and(eq(orders.status, 'pending'), lte(orders.expiresAt, now))!;
  if (status === 'expired') return or(eq(orders.status, 'expired'), lapsed)!;
  if (status === 'pending') return and(eq(orders.status, 'pending'), gt(orders.expiresAt, now))!;
  return eq(orders.status, status);
}

/** A page of a scope's orders matching `f` (id order), and how many match. */
export async function listOrderRows(db: DbOrTx, scope: OrderScope, f: OrderFilter, limit: number, offset: number): Promise<{ rows: OrderRow[]; total: number }> {
  const where: SQL[] = [visibleOrdersWhere(scope)];
  if (f.foreignId !== undefined) where.push(eq(orders.foreignId, f.foreignId));
  if (f.status) where.push(statusWhere(f.status.is, f.status.now));
  if (f.createdFrom) where.push(gte(orders.createdAt, f.createdFrom));
  if (f.createdBefore) where.push(lt(orders.createdAt, f.createdBefore));
  if (f.createdUntil) where.push(lte(orders.createdAt, f.createdUntil));
  if (f.updatedSince) where.push(gte(orders.updatedAt, f.updatedSince));
  const cond = and(...where);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(orders).where(cond);
  const rows = await db.select().from(orders).where(cond).orderBy(asc(orders.id)).limit(limit).offset(offset);
  return { rows, total: Number(n) };
}

/**
 * What the console's search box may match; any one suffices. Names match by prefix through
 * atrium_search_text (src/db/sql/atrium_search_text.sql), so "mueller" finds "Müller" and
 * "obrien" finds "O'Brien"; emails by case-insensitive prefix.
 */
export interface OrderSearch {
  orderId?: number;
  /** The start of an order number (3 digits or more). */
  orderIdPrefix?: string;
  barcode?: string;
  /** The start of a barcode, digits only (6 or more). */
  barcodePrefix?: string;
  email?: string;
  /** Surname or first name. */
  name?: string;
  /** First name and surname, in either order. */
  fullName?: [string, string];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const like = (s: string) => `${escapeLike(s.toLowerCase())}%`;

/** A scope's orders matching the search, newest first, with their customer and first visit. */
export async function searchOrderRows(db: DbOrTx, scope: OrderScope, s: OrderSearch, limit: number) {
  const alternatives: SQL[] = [];
  if (s.orderId !== undefined) alternatives.push(eq(orders.id, s.orderId));
  if (s.orderIdPrefix !== undefined) alternatives.push(sql`${orders.id}::text like ${`${s.orderIdPrefix}%`}`);
  const codes = (where: SQL) => db.select({ id: orderItems.orderId }).from(barcodes).innerJoin(orderItems, eq(orderItems.id, barcodes.orderItemId)).where(where);
  if (s.barcode !== undefined) alternatives.push(inArray(orders.id, codes(eq(barcodes.code, s.barcode))));
  if (s.barcodePrefix !== undefined) alternatives.push(inArray(orders.id, codes(sql`replace(${barcodes.code}, '-', '') like ${`${s.barcodePrefix}%`}`)));
  if (s.email !== undefined) alternatives.push(sql`lower(${customers.email}) like ${like(s.email)}`);
  if (s.name !== undefined) {
    alternatives.push(nameStarts(customers.surname, s.name));
    alternatives.push(nameStarts(customers.name, s.name));
  }
  if (s.fullName) {
    const [a, b] = s.fullName;
    alternatives.push(sql`(${nameStarts(customers.name, a)} and ${nameStarts(customers.surname, b)})`);
    alternatives.push(sql`(${nameStarts(customers.surname, a)} and ${nameStarts(customers.name, b)})`);
  }
  if (alternatives.length === 0) return [];
  return db
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
      visitAt: sql<Date | null>`(select min(i.start_at) from order_items i where i.order_id = ${orders.id})`.mapWith((v) => (v === null ? null : new Date(v))),
    })
    .from(orders)
    .leftJoin(customers, eq(customers.id, orders.customerId))
    .where(and(visibleOrdersWhere(scope), sql`(${sql.join(alternatives, sql` or `)})`))
    .orderBy(desc(orders.id))
    .limit(limit);
}

/** A customer's name, email and locale (an order's customer). */
export async function customerOfOrder(db: DbOrTx, customerId: number) {
  const [c] = await db.select({ id: customers.id, name: customers.name, surname: customers.surname, email: customers.email, locale: customers.locale }).from(customers).where(eq(customers.id, customerId));
  return c ?? null;
}

/** The visitor mails sent for an order, newest first. */
export async function mailsOfOrder(db: DbOrTx, orderId: number) {
  const r = await db.execute<{ id: number; kind: string; recipient: string; status: string; created_at: string; sent_at: string | null; last_error: string | null }>(sql`
    select m.id, m.kind, m.recipient, m.status, m.created_at, m.sent_at, m.last_error
      from mail_messages m join outbox_events e on e.id = m.event_id
     where e.subject_type = 'order' and e.subject_id = ${orderId}
     order by m.id desc limit 50`);
  return r.rows;
}

/** The scans of an order's barcodes, newest first. */
export async function scansOfOrder(db: DbOrTx, orderId: number) {
  const r = await db.execute<{ id: number; barcode: string; direction: string; result: string; scanned_at: string; people_count: number }>(sql`
    select id, barcode, direction, result, scanned_at, people_count from scans where order_id = ${orderId} order by scanned_at desc limit 100`);
  return r.rows;
}

/** Queues a visitor mail of an outbox event; returns its id. */
export async function insertMail(db: DbOrTx, m: { eventId: string; kind: string; recipient: string; locale: string; createdAt: Date }): Promise<number> {
  const ids = await db.execute<{ id: number }>(sql`
      insert into mail_messages (event_id, kind, recipient, locale, created_at)
      values (${m.eventId}, ${m.kind}, ${m.recipient}, ${m.locale}, ${m.createdAt}) returning id`);
  return ids.rows[0]!.id;
}
