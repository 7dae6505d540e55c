// Events and tours as OCTO offers (docs/octo.md, "Mapping"): which ones the caller may book, and
// their start times over a range of days with what is left. Every rule is the existing one:
// bookability (catalog/visibility), seats booked (capacity/eventDateSeatsBooked), the museum's
// sellability rule (schedules) and a tour's concurrent runs (availability/tours).
import { activeTourIds, eventDatesBetween, findEventsWithZone, languagesByIds, type EventZoneRow } from '../../db/repositories/octoOffers.ts';
import { tourDay, runsAround } from '../availability/tours.ts';
import { tourById, type TourRow } from '../capacity/catalog.ts';
import { eventDateSeatsBooked } from '../capacity/eventDateSeatsBooked.ts';
import { isBookableBy } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { closedEventDates } from '../schedules/eventDates.ts';
import { scheduleOf } from '../schedules/schedule.ts';
import { addDays, daysBetween, localDateOf, startOfLocalDay } from '../time.ts';

export type EventOffer = EventZoneRow;
export type TourOffer = TourRow & { languages: Array<{ id: number; code: string; name: string }> };

/** One start of an event date or a tour: `left` places now (0 when sold out or closed). */
export interface OfferStart {
  date: string;
  start: Date;
  end: Date;
  left: number;
  capacity: number;
  closed: boolean;
  /** The event date it is, for an event. */
  eventDateId?: number;
  maxUnits: number;
}

const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

export async function bookableEvent(ctx: Ctx, id: number): Promise<EventOffer | null> {
  if (!validId(id)) return null;
  const [e] = await findEventsWithZone(ctx.db, id);
  return e && isBookableBy(ctx.principal, e) ? e : null;
}

/** A tour the caller may book in at least one language, with its languages. */
export async function bookableTour(ctx: Ctx, id: number): Promise<TourOffer | null> {
  if (!validId(id)) return null;
  const t = await tourById(ctx, ctx.db, id);
  if (!t || !t.active || !isBookableBy(ctx.principal, t) || t.languageIds.length === 0) return null;
  return { ...t, languages: await languagesByIds(ctx.db, t.languageIds) };
}

export async function listBookableOffers(ctx: Ctx): Promise<{ events: EventOffer[]; tours: TourOffer[] }> {
  const events = (await findEventsWithZone(ctx.db)).filter((e) => isBookableBy(ctx.principal, e));
  const tours: TourOffer[] = [];
  for (const id of await activeTourIds(ctx.db)) {
    const t = await bookableTour(ctx, id);
    if (t) tours.push(t);
  }
  return { events, tours };
}

/** The event's active, future dates on local days [from, to], each with the seats left. */
export async function eventStarts(ctx: Ctx, e: EventOffer, from: string, to: string): Promise<OfferStart[]> {
  const now = ctx.clock.now();
  const rows = (await eventDatesBetween(ctx.db, e.id, startOfLocalDay(from, e.zone), startOfLocalDay(addDays(to, 1), e.zone))).filter(
    (d) => d.active && d.startAt > now,
  );
  const booked = await eventDateSeatsBooked(ctx.db, rows.map((d) => d.id), now);
  const closed = await closedEventDates(ctx, ctx.db, rows.map((d) => ({ museumId: e.museumId, eventId: e.id, startAt: d.startAt, duration: d.duration })));
  return rows.map((d, i) => {
    const left = closed[i] ? 0 : Math.max(0, d.seatsMax - (booked.get(d.id) ?? 0));
    return {
      date: localDateOf(d.startAt, e.zone),
      start: d.startAt,
      end: new Date(d.startAt.getTime() + d.duration * 60_000),
      left,
      capacity: d.seatsMax,
      closed: closed[i]!,
      eventDateId: d.id,
      maxUnits: Math.min(left, d.maxPerRegistration ?? d.seatsMax),
    };
  });
}

/**
 * The tour's possible starts on local days [from, to] (not past, sellable). A start has room for
 * one more run (up to max_persons participants) or none: `left` is max_persons or 0.
 */
export async function tourStarts(ctx: Ctx, t: TourOffer, from: string, to: string): Promise<OfferStart[]> {
  const now = ctx.clock.now();
  const [runs, sched] = await Promise.all([runsAround(ctx, t, from, to), scheduleOf(ctx, ctx.db, t.museumId)]);
  const out: OfferStart[] = [];
  for (let i = 0; i <= daysBetween(from, to); i++) {
    const date = addDays(from, i);
    for (const s of tourDay(t, date, now, runs, sched)) {
      const left = s.free ? t.maxPersons : 0;
      out.push({ date, start: s.start, end: new Date(s.start.getTime() + t.duration * 60_000), left, capacity: t.maxPersons, closed: false, maxUnits: left });
    }
  }
  return out;
}
