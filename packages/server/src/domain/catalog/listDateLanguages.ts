// GET /dates/languages (go~mus): the languages of the dates GET /dates would list with the same
// filters and range, so a shop can offer a language filter that never comes up empty.
import { sql } from 'drizzle-orm';
import { eventDates, events, languages } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { dateRange, datesCond } from './datesPage.ts';
import { resolveLocale } from './internal.ts';
import { datesWhere, type ListDatesInput } from './listDates.ts';
import type { LanguageRef } from './loaders.ts';
import { rowsOf } from './pageQuery.ts';

export async function listDateLanguages(ctx: Ctx, input: Omit<ListDatesInput, 'page' | 'per_page' | 'date'>): Promise<LanguageRef[]> {
  resolveLocale(ctx, input.locale); // an unknown locale is a 422, as on GET /dates
  const range = dateRange(ctx, ctx.config.zone, input);
  // One named prepared statement (pageQuery.ts): planned once per connection. The dates of the
  // range come from the covering index of migration 0027, as GET /dates's (ADR 0030).
  return rowsOf<LanguageRef>(
    ctx.db,
    sql`select ${languages.id} as "id", ${languages.name} as "name" from ${languages}
      where ${languages.id} in (select ${eventDates.languageId} from ${eventDates} inner join ${events} on ${events.id} = ${eventDates.eventId}
        where ${datesCond(datesWhere(ctx, input), range)})
      order by ${languages.id}`,
  );
}
