// Per day whether a tour can still be booked for `participants` (go~mus GET
// /tours/:id/start_times with a date range): at most a year, one query of tour runs.
import type { Ctx } from '../context.ts';
import { scheduleOf } from '../schedules/schedule.ts';
import { localDateOf } from '../time.ts';
import { calendarRange } from './getTicketCalendar.ts';
import { participantsParam, runsAround, tourDay, visibleTour } from './tours.ts';

export async function getTourCalendar(
  ctx: Ctx,
  input: { tourId: number; startAt?: string | undefined; endAt?: string | undefined; participants?: number | undefined; languageId?: number | undefined },
): Promise<Map<string, boolean>> {
  const t = await visibleTour(ctx, input.tourId, input.languageId);
  participantsParam(t, input.participants);
  const now = ctx.clock.now();
  const dates = calendarRange(localDateOf(now, t.zone), input.startAt, input.endAt);
  const [runs, sched] = await Promise.all([runsAround(ctx, t, dates[0]!, dates[dates.length - 1]!), scheduleOf(ctx, ctx.db, t.museumId)]);
  return new Map(dates.map((d) => [d, tourDay(t, d, now, runs, sched).some((s) => s.free)]));
}
