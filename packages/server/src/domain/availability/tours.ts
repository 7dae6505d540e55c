// Shared tour availability: a start is possible when it is not past and fewer than
// max_concurrent runs of the tour overlap [start, start + duration) at any moment.
import { tourById, type TourRow } from '../capacity/catalog.ts';
import { tourSale } from '../capacity/resolve.ts';
import { tourStarts } from '../capacity/slots.ts';
import { peakConcurrency, tourRuns } from '../capacity/used.ts';
import { isVisibleTo } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { isSellable } from '../schedules/rule.ts';
import type { Schedule } from '../schedules/schedule.ts';

export type { TourRow };
type Run = { start: Date; end: Date; quantity: number };

export async function visibleTour(ctx: Ctx, id: number, languageId: number | undefined): Promise<TourRow> {
  const t = await tourById(ctx, ctx.db, id);
  if (!t || !isVisibleTo(ctx.principal, t)) throw notFound('tour');
  if (languageId !== undefined && !t.languageIds.includes(languageId)) {
    throw new DomainError('LANGUAGE_NOT_AVAILABLE', `tour ${id} is not offered in language ${languageId}`);
  }
  return t;
}

/** participants defaults to the tour's minimum; below it or above the maximum is a 422. */
export function participantsParam(t: TourRow, participants: number | undefined): number {
  const p = participants ?? Math.max(1, t.minPersons);
  if (p < t.minPersons || p > t.maxPersons) throw invalid(`participants must be between ${t.minPersons} and ${t.maxPersons}`);
  return p;
}

/** Live runs of the tour that may overlap starts on dates [first, last] (one query). */
export async function runsAround(ctx: Ctx, t: TourRow, first: string, last: string): Promise<Run[]> {
  const from = new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000 - t.duration * 60_000);
  const to = new Date(Date.parse(`${last}T00:00:00Z`) + 2 * 86_400_000 + t.duration * 60_000);
  return tourRuns(ctx.db, ctx.clock.now(), t.id, from, to);
}

/** Each start of the date (not past, sellable by the schedule rule) with whether one more run fits. */
export function tourDay(t: TourRow, date: string, now: Date, runs: Run[], sched: Schedule | null): Array<{ start: Date; free: boolean }> {
  // The question a booking of the start asks (tourSale, capacity/resolve.ts).
  return tourStarts(t, date, t.zone)
    .map((start) => tourSale(t, start))
    .filter((s) => s.start >= now && isSellable(sched ?? undefined, s.target, s.mode, s.start, s.end, date))
    .map(({ start, end }) => {
      const overlapping = runs.filter((r) => r.start < end && r.end > start);
      return { start, free: peakConcurrency(overlapping, start, end) < t.maxConcurrent };
    });
}
