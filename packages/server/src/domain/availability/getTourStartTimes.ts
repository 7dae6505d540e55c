// Start times of a tour on one date (go~mus GET /tours/:id/start_times/:date): every start of
// the window that is not past, with the participant range and how many participants can still
// be booked there (max_persons when a run is free, else 0).
import type { Ctx } from '../context.ts';
import { scheduleOf } from '../schedules/schedule.ts';
import { dateParam } from './internal.ts';
import { participantsParam, runsAround, tourDay, visibleTour } from './tours.ts';

export interface StartTime {
  start: Date;
  min: number;
  max: number;
  bookable: number;
}

export async function getTourStartTimes(
  ctx: Ctx,
  input: { tourId: number; date: string; participants?: number | undefined; languageId?: number | undefined },
): Promise<{ zone: string; starts: StartTime[] }> {
  const t = await visibleTour(ctx, input.tourId, input.languageId);
  const date = dateParam(ctx, input.date, t.zone);
  const participants = participantsParam(t, input.participants);
  const [runs, sched] = await Promise.all([runsAround(ctx, t, date, date), scheduleOf(ctx, ctx.db, t.museumId)]);
  const starts = tourDay(t, date, ctx.clock.now(), runs, sched).map((s) => ({
    start: s.start,
    min: t.minPersons,
    max: t.maxPersons,
    bookable: s.free && participants <= t.maxPersons ? t.maxPersons : 0,
  }));
  return { zone: t.zone, starts };
}
