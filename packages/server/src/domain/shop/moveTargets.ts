// Where a visitor may move a booked item (docs/shop.md): a ticket to another free slot of the
// same ticket, an event seat to another date of the same event, a tour to another free start of
// the same tour in the same language. An event or a tour has one price for all its dates and
// starts, so the item keeps its price. What is free comes from the same availability reads as
// the API; the move itself claims through the capacity module (moveBooking.ts), which decides.
import { getTicketCapacity } from '../availability/getTicketCapacity.ts';
import { getTourStartTimes } from '../availability/getTourStartTimes.ts';
import type { SlotLeft } from '../availability/internal.ts';
import type { Claim } from '../capacity/types.ts';
import { listEventDates } from '../catalog/listEventDates.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import type { OrderItemView } from '../orders/internal.ts';
import { addDays, localDateOf } from '../time.ts';

type DateV = { id: number; start_time: string; bookable: boolean; seats: { available: number } };

/** The other dates of the item's event starting on `date` (museum-local), as the catalogue shows them. */
async function eventDatesOn(sys: Ctx, eventId: number, date: string): Promise<DateV[]> {
  const page = await listEventDates(sys, { event_id: eventId, start_at: date, end_at: addDays(date, 1), per_page: 100 });
  return (page.items as unknown as DateV[]).filter((d) => d.start_time.slice(0, 10) === date);
}

/** Free starts on `date` with room for the item's quantity, except its own. */
export async function freeStartsFor(sys: Ctx, item: OrderItemView, date: string): Promise<{ zone: string; slots: SlotLeft[] }> {
  const own = (s: Date) => s.getTime() === item.startAt.getTime();
  if (item.ticketId !== null) {
    const { zone, slots } = await getTicketCapacity(sys, { ticketId: item.ticketId, date });
    return { zone, slots: slots.filter((s) => s.left >= item.quantity && !own(s.start)) };
  }
  if (item.eventId !== null) {
    const dates = await eventDatesOn(sys, item.eventId, date);
    const slots = dates.map((d) => ({ start: new Date(d.start_time), left: d.seats.available })).filter((s, n) => dates[n]!.bookable && s.left >= item.quantity && !own(s.start));
    return { zone: item.zone, slots };
  }
  const { zone, starts } = await getTourStartTimes(sys, { tourId: item.tourId!, date, participants: item.quantity, ...(item.languageId !== null ? { languageId: item.languageId } : {}) });
  return { zone, slots: starts.filter((s) => s.bookable > 0 && !own(s.start)).map((s) => ({ start: s.start, left: s.bookable })) };
}

/** What the item claims at `startAt`, and for an event the date starting then. */
export async function claimAt(sys: Ctx, item: OrderItemView, startAt: Date): Promise<{ claim: Claim; eventDateId?: number }> {
  if (item.ticketId !== null) return { claim: { kind: 'ticket', ticketId: item.ticketId, startAt, quantity: item.quantity } };
  if (item.eventId !== null) {
    const d = (await eventDatesOn(sys, item.eventId, localDateOf(startAt, item.zone))).find((x) => new Date(x.start_time).getTime() === startAt.getTime());
    if (!d) throw invalid('booking could not be moved', ['the event has no date at that time']);
    return { claim: { kind: 'event_date', eventDateId: d.id, quantity: item.quantity }, eventDateId: d.id };
  }
  return { claim: { kind: 'tour', tourId: item.tourId!, startAt, languageId: item.languageId!, participants: item.quantity } };
}
