import { and, type SQL } from 'drizzle-orm';
import { eventDates, events } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { datesPage, dateRange, type RangeInput } from './datesPage.ts';
import { paging, resolveLocale, titleMatches, type ListInput, type Page } from './internal.ts';
import type { View } from './views.ts';
import { visibleSql } from './visibilitySql.ts';
import { categoryFilter } from './categories.ts';
import { dateLanguageFilter } from './languageFilter.ts';
import { inIds } from './pageQuery.ts';

export interface ListDatesInput extends ListInput, RangeInput {
  by_event_ids?: number[] | undefined;
  by_museum_ids?: number[] | undefined;
  by_category_ids?: number[] | undefined;
  by_categories?: string[] | undefined;
  by_language_ids?: number[] | undefined;
}

/** Dates of every event the caller sees, in a range of instance-zone days (default: rest of month). */
export async function listDates(ctx: Ctx, input: ListDatesInput): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const range = dateRange(ctx, ctx.config.zone, input);
  return datesPage(ctx, datesWhere(ctx, input), range, pg, L);
}

/** The filters of GET /dates (also GET /dates/languages and, through listDates, /calendar). */
export function datesWhere(ctx: Ctx, input: Omit<ListDatesInput, keyof RangeInput | 'page' | 'per_page' | 'locale'>): SQL | undefined {
  return and(
    visibleSql(ctx.principal, events),
    // One array parameter whatever the number of ids, so the statement's text (and its prepared
    // name) does not change with the length of the list (pageQuery.ts#inIds).
    input.by_event_ids?.length ? inIds(eventDates.eventId, input.by_event_ids) : undefined,
    input.by_museum_ids?.length ? inIds(events.museumId, input.by_museum_ids) : undefined,
    categoryFilter(events.categoryId, input, 'event'),
    dateLanguageFilter(input.by_language_ids),
    titleMatches(events.title, input.q),
  );
}
