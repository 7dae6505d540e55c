// Single-record lookups with the caller's visibility applied. A record the caller may not see is
// "not found", exactly like one that does not exist (docs/api-contract.md §2: never reveal existence).
import { eventById, eventDateWithEvent, eventInZoneById, exhibitionById, museumById, type Event } from '../../db/repositories/catalog/records.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { isVisibleTo } from './visibility.ts';

export async function findMuseum(ctx: Ctx, id: number) {
  const m = await museumById(ctx.db, id);
  if (!m || !inMuseumScope(ctx.principal, m.id)) throw notFound('museum');
  return m;
}

export async function findExhibition(ctx: Ctx, id: number) {
  const x = await exhibitionById(ctx.db, id);
  if (!x || !inMuseumScope(ctx.principal, x.museumId)) throw notFound('exhibition');
  return x;
}

export async function findEvent(ctx: Ctx, id: number) {
  return seenEvent(ctx, await eventById(ctx.db, id));
}

/** `findEvent` and its museum's time zone, in one named prepared statement (GET /events/:id/dates). */
export async function findEventInZone(ctx: Ctx, id: number): Promise<{ event: Event; zone: string }> {
  const { __zone: zone, ...event } = seenEvent(ctx, await eventInZoneById(ctx.db, id));
  return { event, zone };
}

function seenEvent<E extends Event>(ctx: Ctx, e: E | undefined): E {
  if (!e || !isVisibleTo(ctx.principal, e)) throw notFound('event');
  return e;
}

/** An event date with its event and the museum's zone; visible when its event is and it is active. */
export async function findEventDate(ctx: Ctx, eventId: number | undefined, id: number) {
  const row = await eventDateWithEvent(ctx.db, id);
  if (!row || (eventId !== undefined && row.date.eventId !== eventId)) throw notFound('date');
  if (!row.date.active || !isVisibleTo(ctx.principal, row.event)) throw notFound('date');
  return row;
}
