// What a PDF renderer needs of an order, read in a few statements: the order, its items, the
// museum, the titles of what was booked, the barcodes and the customer.
import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { barcodes, customers, eventDates, events, languages, museums, orderItems, orders, tickets, tours } from '../../schema/index.ts';
import type { Translated } from '../../schema/catalog.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type MuseumRow = typeof museums.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type TourRow = typeof tours.$inferSelect;

export interface OrderRenderRows {
  order: OrderRow;
  items: OrderItemRow[];
  museum: MuseumRow | null;
  tickets: TicketRow[];
  eventDates: Array<{ id: number; title: Translated }>;
  tours: TourRow[];
  languages: Array<{ id: number; name: string }>;
  barcodes: Array<{ orderItemId: number; code: string; status: string }>;
  customer: CustomerRow | null;
}

export async function orderRenderRows(db: DbOrTx, orderId: number): Promise<OrderRenderRows | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  const museumId = items[0]?.museumId ?? order.museumIds[0];
  const [m] = museumId ? await db.select().from(museums).where(eq(museums.id, museumId)) : [];
  const ids = (f: (i: OrderItemRow) => number | null) => [...new Set(items.map(f).filter((x): x is number => x !== null))];
  const [ts, ds, trs, ls, cs, cust] = await Promise.all([
    ids((i) => i.ticketId).length ? db.select().from(tickets).where(inArray(tickets.id, ids((i) => i.ticketId))) : [],
    ids((i) => i.eventDateId).length
      ? db.select({ id: eventDates.id, title: events.title }).from(eventDates).innerJoin(events, eq(events.id, eventDates.eventId))
          .where(inArray(eventDates.id, ids((i) => i.eventDateId)))
      : [],
    ids((i) => i.tourId).length ? db.select().from(tours).where(inArray(tours.id, ids((i) => i.tourId))) : [],
    ids((i) => i.languageId).length ? db.select().from(languages).where(inArray(languages.id, ids((i) => i.languageId))) : [],
    items.length
      ? db.select().from(barcodes).where(inArray(barcodes.orderItemId, items.map((i) => i.id))).orderBy(asc(barcodes.id))
      : [],
    order.customerId ? db.select().from(customers).where(eq(customers.id, order.customerId)) : [],
  ]);
  return {
    order,
    items,
    museum: m ?? null,
    tickets: ts,
    eventDates: ds,
    tours: trs,
    languages: ls.map((l) => ({ id: l.id, name: l.name })),
    barcodes: cs.map((c) => ({ orderItemId: c.orderItemId, code: c.code, status: c.status })),
    customer: cust[0] ?? null,
  };
}
