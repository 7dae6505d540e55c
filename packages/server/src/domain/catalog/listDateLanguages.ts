// GET /dates/languages (go~mus): the languages of the dates GET /dates would list with the same
// filters and range, so a shop can offer a language filter that never comes up empty.
import { languagesOfDates } from '../../db/repositories/catalog/dateStatements.ts';
import type { LanguageRef } from '../../db/repositories/catalog/related.ts';
import type { Ctx } from '../context.ts';
import { dateRange } from './datesPage.ts';
import { resolveLocale } from './internal.ts';
import { datesFilterOf, type ListDatesInput } from './listDates.ts';

export async function listDateLanguages(ctx: Ctx, input: Omit<ListDatesInput, 'page' | 'per_page' | 'date'>): Promise<LanguageRef[]> {
  resolveLocale(ctx, input.locale); // an unknown locale is a 422, as on GET /dates
  const range = dateRange(ctx, ctx.config.zone, input);
  return languagesOfDates(ctx.db, datesFilterOf(ctx, input), range);
}
