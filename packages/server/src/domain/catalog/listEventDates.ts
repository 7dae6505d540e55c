import { and, eq, sql } from 'drizzle-orm';
import { eventDates, events, museums } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { datesPage, dateRange, type RangeInput } from './datesPage.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import { dateLanguageFilter } from './languageFilter.ts';
import { findEvent } from './lookups.ts';
import { rowsOf } from './pageQuery.ts';
import type { View } from './views.ts';

/** Dates of one event: `date`, or `start_at`..`end_at` of at most 31 museum-local days. */
export async function listEventDates(ctx: Ctx, input: ListInput & RangeInput & { event_id: number; by_language_ids?: number[] | undefined }): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // The event (a 404 unless the caller sees it) and its museum's zone at once; the zone is read
  // by the event's id in a named statement, so the two are one round trip, not two.
  const [event, [museum]] = await Promise.all([
    findEvent(ctx, input.event_id),
    rowsOf<{ zone: string }>(ctx.db, sql`select ${museums.timeZone} as "zone" from ${events} inner join ${museums} on ${museums.id} = ${events.museumId} where ${events.id} = ${input.event_id}`),
  ]);
  if (!museum) throw notFound('event'); // deleted between the two reads
  const range = dateRange(ctx, museum.zone, input, 31);
  return datesPage(ctx, and(eq(eventDates.eventId, event.id), dateLanguageFilter(input.by_language_ids)), range, pg, L);
}
