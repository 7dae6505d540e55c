// What the sellability rule knows about one museum: weekly hours, dated seasons, single-date
// exceptions and closures (docs/adr/0013-sellability-rule.md). Read once per museum through the
// process's master-data memo (ctx.masterData): every change to these rows bumps catalog_version
// and clears the memo on every node (src/db/sql/atrium_bump_catalog_version.sql), so availability pays for it once
// per catalogue change, not per request. Values are shared between requests: never mutate them.
import type { DbOrTx } from '../../db/client.ts';
import { scheduleJsonOf, type ClosureSpan, type Hours, type ScheduleJson, type Season } from '../../db/repositories/schedules/schedule.ts';
import type { WeeklyHours } from '../../db/schema/index.ts';
import { masterData, type Ctx } from '../context.ts';
import { addDays, zonedInstant } from '../time.ts';

export type { ClosureSpan, Hours, ScheduleJson, Season };

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

/** A museum's schedule json (db/repositories/schedules/schedule.ts) as the rule reads it. */
export function scheduleFrom(museumId: number, j: ScheduleJson): Schedule {
  return { museumId, zone: j.zone, weekly: j.weekly, exceptions: j.exceptions ?? {}, seasons: j.seasons, closures: j.closures };
}

async function readSchedule(db: DbOrTx, museumId: number): Promise<Schedule | null> {
  const s = await scheduleJsonOf(db, museumId);
  return s ? scheduleFrom(museumId, s) : null;
}
