// Closures of a museum (or of some of its tickets, quotas, events or tours), the schedule lock
// that orders them against bookings, and the live order items a closure may shut.
import { and, asc, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { closures, eventDates, events, museums, orderItems, orders, quotas, tickets, tours } from '../../schema/index.ts';
import type { PageWindow } from '../catalog/pages.ts';
import { inScopeSql, type Viewer } from '../catalog/visibility.ts';

export type Closure = typeof closures.$inferSelect;
export type NewClosure = typeof closures.$inferInsert;

/**
 * The museum's schedule lock, until the transaction ends. A closure or an hours change takes it
 * alone; bookings take it shared when they write an item or hold (atrium_closure_guard,
 * src/db/sql/atrium_closure_guard.sql), so a booking commits either before or after.
 */
export async function lockSchedule(db: DbOrTx, museumId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('atrium-schedule:' || ${museumId}::integer, 0))`);
}

export interface ClosureFilter {
  viewer: Viewer;
  museumIds?: readonly number[] | undefined;
  /** Closures ending on or after this day. */
  from?: string | undefined;
  /** Closures starting on or before this day. */
  to?: string | undefined;
}

/** A page of closures by start date, and their count. */
export async function closuresPage(db: DbOrTx, f: ClosureFilter, w: PageWindow): Promise<{ rows: Closure[]; total: number }> {
  const where = and(
    inScopeSql(f.viewer, closures.museumId),
    f.museumIds?.length ? inArray(closures.museumId, [...f.museumIds]) : undefined,
    f.from ? gte(closures.endDate, f.from) : undefined,
    f.to ? lte(closures.startDate, f.to) : undefined,
  );
  const [rows, total] = await Promise.all([
    db.select().from(closures).where(where).orderBy(asc(closures.startDate), asc(closures.id)).limit(w.limit).offset(w.offset),
    db.$count(closures, where),
  ]);
  return { rows, total };
}

export async function closureById(db: DbOrTx, id: number): Promise<Closure | undefined> {
  const [c] = await db.select().from(closures).where(eq(closures.id, id));
  return c;
}

/** A closure with its museum's time zone. */
export async function closureInZone(db: DbOrTx, id: number): Promise<{ c: Closure; zone: string } | undefined> {
  const [r] = await db.select({ c: closures, zone: museums.timeZone }).from(closures).innerJoin(museums, eq(museums.id, closures.museumId)).where(eq(closures.id, id));
  return r;
}

export async function closuresOfMuseum(db: DbOrTx, museumId: number): Promise<Closure[]> {
  return db.select().from(closures).where(eq(closures.museumId, museumId));
}

export async function insertClosure(db: DbOrTx, values: NewClosure): Promise<Closure> {
  return (await db.insert(closures).values(values).returning())[0]!;
}

export async function deleteClosureById(db: DbOrTx, id: number): Promise<void> {
  await db.delete(closures).where(eq(closures.id, id));
}

const OWNED = { ticket_ids: tickets, quota_ids: quotas, event_ids: events, tour_ids: tours } as const;

/** Which of `ids` are `kind` records of museum `museumId`. */
export async function idsInMuseum(db: DbOrTx, kind: keyof typeof OWNED, museumId: number, ids: number[]): Promise<Set<number>> {
  const t = OWNED[kind];
  const found = await db.select({ id: t.id }).from(t).where(and(inArray(t.id, ids), eq(t.museumId, museumId)));
  return new Set(found.map((r) => r.id));
}

/** A live order item that may overlap a period, with what the closure rule needs of it. */
export interface LiveItem {
  id: number;
  orderId: number;
  quantity: number;
  startAt: Date;
  ticketId: number | null;
  tourId: number | null;
  ticketType: string | null;
  entryDuration: number | null;
  lastEntry: number | null;
  quotaIds: number[];
  eventId: number | null;
  eventDuration: number | null;
  tourDuration: number | null;
}

/**
 * Active items of live orders (finalized, or pending and not expired at `now`) of the museum that
 * start in [from, to).
 */
export async function liveItemsStarting(db: DbOrTx, museumId: number, from: Date, to: Date, now: Date): Promise<LiveItem[]> {
  return db
    .select({
      id: orderItems.id,
      orderId: orderItems.orderId,
      quantity: orderItems.quantity,
      startAt: orderItems.startAt,
      ticketId: orderItems.ticketId,
      tourId: orderItems.tourId,
      ticketType: tickets.ticketType,
      entryDuration: tickets.entryDuration,
      lastEntry: tickets.lastEntry,
      quotaIds: sql<number[]>`coalesce((select array_agg(tq.quota_id) from ticket_quotas tq where tq.ticket_id = ${orderItems.ticketId}), '{}')`,
      eventId: eventDates.eventId,
      eventDuration: eventDates.duration,
      tourDuration: tours.duration,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(tickets, eq(tickets.id, orderItems.ticketId))
    .leftJoin(eventDates, eq(eventDates.id, orderItems.eventDateId))
    .leftJoin(tours, eq(tours.id, orderItems.tourId))
    .where(
      and(
        eq(orderItems.museumId, museumId),
        eq(orderItems.status, 'active'),
        or(eq(orders.status, 'finalized'), and(eq(orders.status, 'pending'), sql`${orders.expiresAt} > ${now.toISOString()}`)),
        gte(orderItems.startAt, from),
        lt(orderItems.startAt, to),
      ),
    );
}
