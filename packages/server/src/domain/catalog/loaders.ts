// Batch loaders for the pieces of a list page that live in other tables. Each runs one query for
// the whole page (never one per record).
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { eventDates, languages, quotaOverrides, ticketQuotas, tourLanguages } from '../../db/schema/index.ts';
import { groupBy } from './internal.ts';
import type { GroupedExtra } from './pageQuery.ts';

export interface LanguageRef {
  id: number;
  name: string;
}

/**
 * The same quota ids as a column of a ticket query (pageQuery.ts): ascending, [] for none. The
 * batch loader below stays for paths that already hold the ticket rows.
 */
export function quotaIdsSql(ticketId: AnyPgColumn): SQL {
  return sql`array(select ${ticketQuotas.quotaId} from ${ticketQuotas} where ${ticketQuotas.ticketId} = ${ticketId} order by ${ticketQuotas.quotaId})`;
}

/** `quotaIdsSql` for a whole page at once (pageQuery.ts#GroupedExtra): the same ascending ids, [] for none. */
export const quotaIdsByPage: GroupedExtra = {
  query: (ids) =>
    sql`select ${ticketQuotas.ticketId} as "__id", array_agg(${ticketQuotas.quotaId} order by ${ticketQuotas.quotaId}) as "quotaIds" from ${ticketQuotas} where ${ticketQuotas.ticketId} = any(array(${ids})) group by ${ticketQuotas.ticketId}`,
  columns: sql`coalesce("__x"."quotaIds", '{}') as "quotaIds"`,
};

/** `languagesByTour` as a json column of a tour query: [{id, name}] by language id. */
export function tourLanguagesSql(tourId: AnyPgColumn): SQL {
  return sql`coalesce((select json_agg(json_build_object('id', ${languages.id}, 'name', ${languages.name}) order by ${languages.id})
    from ${tourLanguages} join ${languages} on ${languages.id} = ${tourLanguages.languageId} where ${tourLanguages.tourId} = ${tourId}), '[]'::json)`;
}

/** `languagesByEvent` as a json column of an event query: languages of its active dates. */
export function eventLanguagesSql(eventId: AnyPgColumn): SQL {
  return sql`coalesce((select json_agg(json_build_object('id', ${languages.id}, 'name', ${languages.name}) order by ${languages.id})
    from ${languages} where ${languages.id} in (select ${eventDates.languageId} from ${eventDates} where ${eventDates.eventId} = ${eventId} and ${eventDates.active})), '[]'::json)`;
}

export async function quotaIdsByTicket(db: DbOrTx, ticketIds: number[]): Promise<Map<number, number[]>> {
  if (ticketIds.length === 0) return new Map();
  const rows = await db
    .select({ ticketId: ticketQuotas.ticketId, quotaId: ticketQuotas.quotaId })
    .from(ticketQuotas)
    .where(inArray(ticketQuotas.ticketId, ticketIds))
    .orderBy(asc(ticketQuotas.quotaId));
  return groupBy(rows, (r) => r.ticketId, (r) => r.quotaId);
}

export async function ticketIdsByQuota(db: DbOrTx, quotaIds: number[]): Promise<Map<number, number[]>> {
  if (quotaIds.length === 0) return new Map();
  const rows = await db
    .select({ ticketId: ticketQuotas.ticketId, quotaId: ticketQuotas.quotaId })
    .from(ticketQuotas)
    .where(inArray(ticketQuotas.quotaId, quotaIds))
    .orderBy(asc(ticketQuotas.ticketId));
  return groupBy(rows, (r) => r.quotaId, (r) => r.ticketId);
}

export async function overridesByQuota(
  db: DbOrTx,
  quotaIds: number[],
): Promise<Map<number, Array<{ date: string; capacity: number | null }>>> {
  if (quotaIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(quotaOverrides)
    .where(inArray(quotaOverrides.quotaId, quotaIds))
    .orderBy(asc(quotaOverrides.date));
  return groupBy(rows, (r) => r.quotaId, (r) => ({ date: r.date, capacity: r.capacity }));
}

export async function languagesByTour(db: DbOrTx, tourIds: number[]): Promise<Map<number, LanguageRef[]>> {
  if (tourIds.length === 0) return new Map();
  const rows = await db
    .select({ tourId: tourLanguages.tourId, id: languages.id, name: languages.name })
    .from(tourLanguages)
    .innerJoin(languages, eq(languages.id, tourLanguages.languageId))
    .where(inArray(tourLanguages.tourId, tourIds))
    .orderBy(asc(languages.id));
  return groupBy(rows, (r) => r.tourId, (r) => ({ id: r.id, name: r.name }));
}

/** Languages an event is given in: those of its active dates. */
export async function languagesByEvent(db: DbOrTx, eventIds: number[]): Promise<Map<number, LanguageRef[]>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectDistinct({ eventId: eventDates.eventId, id: languages.id, name: languages.name })
    .from(eventDates)
    .innerJoin(languages, eq(languages.id, eventDates.languageId))
    .where(and(inArray(eventDates.eventId, eventIds), eq(eventDates.active, true)))
    .orderBy(asc(eventDates.eventId), asc(languages.id));
  return groupBy(rows, (r) => r.eventId, (r) => ({ id: r.id, name: r.name }));
}
