// go~mus `by_language_ids[]` on /events, /tours, /dates, /events/:id/dates and the calendars: a
// date in one of the languages; an event with an active date in one; a tour offered in one. An
// id naming no language matches nothing (an empty list), as go~mus answers.
import { sql, type SQL } from 'drizzle-orm';
import { eventDates, events, tourLanguages, tours } from '../../db/schema/index.ts';
import { inIds } from './pageQuery.ts';

type Ids = number[] | undefined;

export function dateLanguageFilter(ids: Ids): SQL | undefined {
  return ids?.length ? inIds(eventDates.languageId, ids) : undefined;
}

export function eventLanguageFilter(ids: Ids): SQL | undefined {
  if (!ids?.length) return undefined;
  return sql`exists (select 1 from ${eventDates} where ${eventDates.eventId} = ${events.id} and ${eventDates.active} and ${inIds(eventDates.languageId, ids)})`;
}

export function tourLanguageFilter(ids: Ids): SQL | undefined {
  if (!ids?.length) return undefined;
  return sql`exists (select 1 from ${tourLanguages} where ${tourLanguages.tourId} = ${tours.id} and ${inIds(tourLanguages.languageId, ids)})`;
}
