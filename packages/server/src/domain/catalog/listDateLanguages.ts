// GET /dates/languages (go~mus): the languages of the dates GET /dates would list with the same
// filters and range, so a shop can offer a language filter that never comes up empty.
import { asc, eq, inArray } from 'drizzle-orm';
import { eventDates, events, languages } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { dateRange, datesCond } from './datesPage.ts';
import { resolveLocale } from './internal.ts';
import { datesWhere, type ListDatesInput } from './listDates.ts';
import type { LanguageRef } from './loaders.ts';

export async function listDateLanguages(ctx: Ctx, input: Omit<ListDatesInput, 'page' | 'per_page' | 'date'>): Promise<LanguageRef[]> {
  resolveLocale(ctx, input.locale); // an unknown locale is a 422, as on GET /dates
  const range = dateRange(ctx, ctx.config.zone, input);
  const used = ctx.db
    .selectDistinct({ id: eventDates.languageId })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(datesCond(datesWhere(ctx, input), range));
  return ctx.db.select({ id: languages.id, name: languages.name }).from(languages).where(inArray(languages.id, used)).orderBy(asc(languages.id));
}
