import { languageById } from '../../db/repositories/catalog/records.ts';
import { eventDateSeatsBooked } from '../capacity/eventDateSeatsBooked.ts';
import { closedEventDates } from '../schedules/eventDates.ts';
import type { Ctx } from '../context.ts';
import { resolveLocale } from './internal.ts';
import { findEventDate } from './lookups.ts';
import { eventDateDetail, eventDateView, type View } from './views.ts';
import { categoryOf } from './categories.ts';

export async function getEventDate(
  ctx: Ctx,
  input: { event_id?: number | undefined; id: number; locale?: string | string[] | undefined },
): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  const { date, event, zone } = await findEventDate(ctx, input.event_id, input.id);
  const now = ctx.clock.now();
  const [booked, language, [closed], category] = await Promise.all([
    eventDateSeatsBooked(ctx.db, [date.id], now),
    date.languageId === null ? Promise.resolve(undefined) : languageById(ctx.db, date.languageId),
    closedEventDates(ctx, ctx.db, [{ museumId: event.museumId, eventId: event.id, startAt: date.startAt, duration: date.duration }]),
    categoryOf(ctx.db, event.categoryId),
  ]);
  const view = eventDateView(ctx.principal, date, event, L, { zone, booked: booked.get(date.id) ?? 0, language: language ?? null, category, now, closed: closed! });
  return { ...view, ...eventDateDetail(ctx.principal, event) };
}
