// GET /events/:id/calendar: go~mus's obsolete form of GET /calendar?by_event_ids[]=:id. The same
// verb answers it; only an event the caller cannot see is a 404 first, as on GET /events/:id.
import type { Ctx } from '../context.ts';
import { getEventCalendar, type EventCalendarInput } from './getEventCalendar.ts';
import { findEvent } from './lookups.ts';

export async function getEventCalendarOf(ctx: Ctx, input: Omit<EventCalendarInput, 'by_event_ids'> & { id: number }): ReturnType<typeof getEventCalendar> {
  const { id, ...rest } = input;
  await findEvent(ctx, id);
  return getEventCalendar(ctx, { ...rest, by_event_ids: [id] });
}
