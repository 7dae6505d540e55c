// What the sellability rule knows about one museum: weekly hours, dated seasons, single-date
// exceptions and closures (docs/adr/0013-sellability-rule.md). Read once per museum through the
// process's master-data memo (ctx.masterData): every change to these rows bumps catalog_version and
// clears the memo on every node (src/db/sql/atrium_bump_catalog_version.sql), so availability pays
// for it once per catalogue change, not per request. Values are shared between requests: never
// mutate them.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { closures, museums, openingSeasons, type WeeklyHours } from '../../db/schema/index.ts';
import { rowsOf } from '../catalog/pageQuery.ts';
import { masterData, type Ctx } from '../context.ts';
import { addDays, zonedInstant } from '../time.ts';

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

export interface Schedule {
  museumId: number;
  zone: string;
  weekly: WeeklyHours;
  exceptions: Record<string, Hours>;
  seasons: Season[];
  closures: ClosureSpan[];
}

/** Local wall time `minutes` after midnight of `date`; 1440 and later fall on the next days. */
export function atMinutes(date: string, minutes: number, zone: string): Date {
  const days = Math.floor(minutes / 1440);
  return zonedInstant(days ? addDays(date, days) : date, minutes - days * 1440, zone);
}

export function scheduleOf(ctx: Pick<Ctx, 'masterData'>, db: DbOrTx, museumId: number): Promise<Schedule | null> {
  return masterData(ctx, `schedule:${museumId}`, () => readSchedule(db, museumId));
}

/** Schedules of several museums (one memo lookup each). Unknown museums are left out. */
export async function schedulesOf(ctx: Pick<Ctx, 'masterData'>, db: DbOrTx, museumIds: Iterable<number>): Promise<Map<number, Schedule>> {
  const out = new Map<number, Schedule>();
  for (const id of new Set(museumIds)) {
    const s = await scheduleOf(ctx, db, id);
    if (s) out.set(id, s);
  }
  return out;
}

/**
 * Everything the rule knows about one museum as ONE json value, null for an unknown museum: zone,
 * weekly hours, exceptions, seasons (by start date) and closures (by id, their instants as epoch
 * ms). `museumId` is an SQL expression: a parameter (readSchedule), or a column of a statement that
 * reads the schedule beside its own rows (GET /dates without the master-data memo, ADR 0030).
 * `scheduleFrom` makes it the Schedule; this pair is the only reader of the schedule's rows.
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

/** The json of `scheduleSql`, as it arrives (json parsed by node-postgres). */
export type ScheduleJson = Omit<Schedule, 'museumId' | 'exceptions'> & { exceptions: Record<string, Hours> | null };

export function scheduleFrom(museumId: number, j: ScheduleJson): Schedule {
  return { museumId, zone: j.zone, weekly: j.weekly, exceptions: j.exceptions ?? {}, seasons: j.seasons, closures: j.closures };
}

// One statement (named and prepared on the pool; unnamed inside a transaction): a miss of the
// memo, or every read without it (ATRIUM_CATALOG_CACHE=0), costs one round trip, not two.
async function readSchedule(db: DbOrTx, museumId: number): Promise<Schedule | null> {
  const [r] = await rowsOf<{ s: ScheduleJson | null }>(db, sql`select ${scheduleSql(sql`${museumId}::int`)} as "s"`);
  return r?.s ? scheduleFrom(museumId, r.s) : null;
}
