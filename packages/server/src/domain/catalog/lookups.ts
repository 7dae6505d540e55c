// Single-record lookups with the caller's visibility applied. A record the caller may not see is
// "not found", exactly like one that does not exist (docs/api-contract.md §2: never reveal existence).
import { eq, sql } from 'drizzle-orm';
import { eventDates, events, exhibitions, museums, tickets, tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { columnsOf, rowsOf } from './pageQuery.ts';
import { isVisibleTo } from './visibility.ts';

export async function findMuseum(ctx: Ctx, id: number) {
  const [m] = await ctx.db.select().from(museums).where(eq(museums.id, id));
  if (!m || !inMuseumScope(ctx.principal, m.id)) throw notFound('museum');
  return m;
}

export async function findExhibition(ctx: Ctx, id: number) {
  const [x] = await ctx.db.select().from(exhibitions).where(eq(exhibitions.id, id));
  if (!x || !inMuseumScope(ctx.principal, x.museumId)) throw notFound('exhibition');
  return x;
}

export async function findTicket(ctx: Ctx, id: number) {
  const [t] = await ctx.db.select().from(tickets).where(eq(tickets.id, id));
  if (!t || !isVisibleTo(ctx.principal, t)) throw notFound('ticket');
  return t;
}

export async function findEvent(ctx: Ctx, id: number) {
  const [e] = await ctx.db.select().from(events).where(eq(events.id, id));
  return seenEvent(ctx, e);
}

/** `findEvent` and its museum's time zone, in one named prepared statement (GET /events/:id/dates). */
export async function findEventInZone(ctx: Ctx, id: number): Promise<{ event: typeof events.$inferSelect; zone: string }> {
  const [r] = await rowsOf<typeof events.$inferSelect & { __zone: string }>(
    ctx.db,
    sql`select ${columnsOf(events)}, ${museums.timeZone} as "__zone" from ${events} inner join ${museums} on ${museums.id} = ${events.museumId} where ${events.id} = ${id}`,
  );
  const { __zone: zone, ...event } = seenEvent(ctx, r);
  return { event, zone };
}

function seenEvent<E extends typeof events.$inferSelect>(ctx: Ctx, e: E | undefined): E {
  if (!e || !isVisibleTo(ctx.principal, e)) throw notFound('event');
  return e;
}

/** An event date with its event and the museum's zone; visible when its event is and it is active. */
export async function findEventDate(ctx: Ctx, eventId: number | undefined, id: number) {
  const [row] = await ctx.db
    .select({ date: eventDates, event: events, zone: museums.timeZone })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(museums, eq(museums.id, events.museumId))
    .where(eq(eventDates.id, id));
  if (!row || (eventId !== undefined && row.date.eventId !== eventId)) throw notFound('date');
  if (!row.date.active || !isVisibleTo(ctx.principal, row.event)) throw notFound('date');
  return row;
}

export async function findTour(ctx: Ctx, id: number) {
  const [t] = await ctx.db.select().from(tours).where(eq(tours.id, id));
  if (!t || !isVisibleTo(ctx.principal, t)) throw notFound('tour');
  return t;
}
