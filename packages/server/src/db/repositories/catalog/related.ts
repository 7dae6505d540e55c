// What a catalogue record shows from other tables: a ticket's quota ids, a tour's or event's
// languages, a quota's overrides and tickets. As columns of a page's statement (pages.ts), or as
// batch loads of one statement for a whole set of records (never one per record).
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../client.ts';
import { eventDates, languages, museums, quotaOverrides, ticketQuotas, tourLanguages } from '../../schema/index.ts';
import type { GroupedExtra } from './pages.ts';

export interface LanguageRef {
  id: number;
  name: string;
}

/** A quota's capacity on one day (null: closed that day). */
export interface QuotaOverride {
  date: string;
  capacity: number | null;
}

/** Groups rows of a batch load by key. */
function groupBy<R, K, V>(rows: R[], key: (r: R) => K, value: (r: R) => V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(value(r));
    else out.set(k, [value(r)]);
  }
  return out;
}

/**
 * The same quota ids as a column of a ticket query (pages.ts): ascending, [] for none. The
 * batch loaders below stay for paths that already hold the rows.
 */
export function quotaIdsSql(ticketId: AnyPgColumn): SQL {
  return sql`array(select ${ticketQuotas.quotaId} from ${ticketQuotas} where ${ticketQuotas.ticketId} = ${ticketId} order by ${ticketQuotas.quotaId})`;
}

/** `quotaIdsSql` for a whole page at once (pages.ts#GroupedExtra): the same ascending ids, [] for none. */
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
/** The address of a record's museum (go~mus shows it as the event's `location`), or null. */
export function museumLocationSql(museumId: AnyPgColumn | SQL): SQL {
  return sql`(select ${museums.location} from ${museums} where ${museums.id} = ${museumId})`;
}

export function eventLanguagesSql(eventId: AnyPgColumn): SQL {
  return sql`coalesce((select json_agg(json_build_object('id', ${languages.id}, 'name', ${languages.name}) order by ${languages.id})
    from ${languages} where ${languages.id} in (select ${eventDates.languageId} from ${eventDates} where ${eventDates.eventId} = ${eventId} and ${eventDates.active})), '[]'::json)`;
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

export async function overridesByQuota(db: DbOrTx, quotaIds: number[]): Promise<Map<number, QuotaOverride[]>> {
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
