import type { DatesFilter } from '../../db/repositories/catalog/dateStatements.ts';
import type { Ctx } from '../context.ts';
import { datesPage, dateRange, type RangeInput } from './datesPage.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import type { View } from './views.ts';

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
  return datesPage(ctx, datesFilterOf(ctx, input), range, pg, L);
}

/** The filters of GET /dates (also GET /dates/languages and, through listDates, /calendar). */
export function datesFilterOf(ctx: Ctx, input: Omit<ListDatesInput, keyof RangeInput | 'page' | 'per_page' | 'locale'>): DatesFilter {
  return {
    of: 'list',
    viewer: ctx.principal,
    eventIds: input.by_event_ids,
    museumIds: input.by_museum_ids,
    categoryIds: input.by_category_ids,
    categoryNames: input.by_categories,
    languageIds: input.by_language_ids,
    q: input.q,
  };
}
