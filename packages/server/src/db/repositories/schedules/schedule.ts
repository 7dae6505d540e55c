// What the sellability rule knows about one museum (domain/schedules/schedule.ts), read as ONE
// json value: the only reader of the schedule's rows (museum hours and exceptions, seasons,
// closures).
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../client.ts';
import { closures, museums, openingSeasons, type WeeklyHours } from '../../schema/index.ts';
import { rowsOf } from '../catalog/statements.ts';

/** Opening hours of a day as minutes after midnight, or closed. */
export type Hours = [number, number] | null;

export interface Season {
  startDate: string;
  endDate: string;
  hours: WeeklyHours;
}

/** A closure as instants: [from, to) museum-local, with what it covers (empty lists = all). */
export interface ClosureSpan {
  id: number;
  from: number;
  to: number;
  ticketIds: number[];
  quotaIds: number[];
  eventIds: number[];
  tourIds: number[];
  reason: string | null;
}

/** The json of `scheduleSql`, as it arrives (json parsed by node-postgres). */
export interface ScheduleJson {
  zone: string;
  weekly: WeeklyHours;
  exceptions: Record<string, Hours> | null;
  seasons: Season[];
  closures: ClosureSpan[];
}

/**
 * Everything the rule knows about one museum as ONE json value, null for an unknown museum: zone,
 * weekly hours, exceptions, seasons (by start date) and closures (by id, their instants as epoch
 * ms). `museumId` is an SQL expression: a parameter (`scheduleJsonOf`), or a column of a statement
 * that reads the schedule beside its own rows (GET /dates without the master-data memo,
 * docs/adr/0022-catalogue-read-path.md).
 */
export function scheduleSql(museumId: SQL | AnyPgColumn): SQL {
  const s = openingSeasons;
  const c = closures;
  // Instants as the epoch ms node-postgres' Date would give (sub-millisecond digits dropped).
  const ms = (col: AnyPgColumn) => sql`trunc(extract(epoch from ${col}) * 1000)`;
  return sql`(select json_build_object('zone', ${museums.timeZone}, 'weekly', ${museums.openingHours}, 'exceptions', ${museums.openingExceptions},
      'seasons', coalesce((select json_agg(json_build_object('startDate', ${s.startDate}, 'endDate', ${s.endDate}, 'hours', ${s.hours}) order by ${s.startDate}, ${s.id})
        from ${s} where ${s.museumId} = ${museums.id}), '[]'),
      'closures', coalesce((select json_agg(json_build_object('id', ${c.id}, 'from', ${ms(c.startsAt)}, 'to', ${ms(c.endsAt)}, 'ticketIds', ${c.ticketIds},
          'quotaIds', ${c.quotaIds}, 'eventIds', ${c.eventIds}, 'tourIds', ${c.tourIds}, 'reason', ${c.reason}) order by ${c.id})
        from ${c} where ${c.museumId} = ${museums.id}), '[]'))
    from ${museums} where ${museums.id} = ${museumId})`;
}

// One statement (named and prepared on the pool; unnamed inside a transaction): a miss of the
// memo, or every read without it (ATRIUM_CATALOG_CACHE=0), costs one round trip, not two.
/** One museum's schedule json, null for an unknown museum. */
export async function scheduleJsonOf(db: DbOrTx, museumId: number): Promise<ScheduleJson | null> {
  const [r] = await rowsOf<{ s: ScheduleJson | null }>(db, sql`select ${scheduleSql(sql`${museumId}::int`)} as "s"`);
  return r?.s ?? null;
}
