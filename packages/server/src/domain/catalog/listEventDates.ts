import type { Ctx } from '../context.ts';
import { datesPage, dateRange, type RangeInput } from './datesPage.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import { findEventInZone } from './lookups.ts';
import type { View } from './views.ts';

/** Dates of one event: `date`, or `start_at`..`end_at` of at most MAX_RANGE_DAYS museum-local days. */
export async function listEventDates(ctx: Ctx, input: ListInput & RangeInput & { event_id: number; by_language_ids?: number[] | undefined }): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // The event (a 404 unless the caller sees it) and its museum's zone, in one statement.
  const { event, zone } = await findEventInZone(ctx, input.event_id);
  const range = dateRange(ctx, zone, input);
  return datesPage(ctx, { of: 'event', eventId: event.id, languageIds: input.by_language_ids }, range, pg, L);
}
