import { and, eq } from 'drizzle-orm';
import { eventDates, museums } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { datesPage, dateRange, type RangeInput } from './datesPage.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import { dateLanguageFilter } from './languageFilter.ts';
import { findEvent } from './lookups.ts';
import type { View } from './views.ts';

/** Dates of one event: `date`, or `start_at`..`end_at` of at most 31 museum-local days. */
export async function listEventDates(ctx: Ctx, input: ListInput & RangeInput & { event_id: number; by_language_ids?: number[] | undefined }): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const event = await findEvent(ctx, input.event_id);
  const [museum] = await ctx.db.select({ zone: museums.timeZone }).from(museums).where(eq(museums.id, event.museumId));
  const range = dateRange(ctx, museum!.zone, input, 31);
  return datesPage(ctx, and(eq(eventDates.eventId, event.id), dateLanguageFilter(input.by_language_ids)), range, pg, L);
}
