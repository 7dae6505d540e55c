// What the sellability rule knows about one museum: weekly hours, dated seasons, single-date
// exceptions and closures (docs/adr/0013-sellability-rule.md). Read once per museum through the
// process's master-data memo (ctx.masterData): every change to these rows bumps catalog_version
// and clears the memo on every node (migrations 0001, 0012), so availability pays for it once
// per catalogue change, not per request. Values are shared between requests: never mutate them.
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { closures, museums, openingSeasons, type WeeklyHours } from '../../db/schema/index.ts';
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

async function readSchedule(db: DbOrTx, museumId: number): Promise<Schedule | null> {
  const [m] = await db
    .select({ zone: museums.timeZone, weekly: museums.openingHours, exceptions: museums.openingExceptions })
    .from(museums)
    .where(eq(museums.id, museumId));
  if (!m) return null;
  const [seasons, closed] = await Promise.all([
    db.select().from(openingSeasons).where(eq(openingSeasons.museumId, museumId)).orderBy(asc(openingSeasons.startDate)),
    db.select().from(closures).where(eq(closures.museumId, museumId)).orderBy(asc(closures.id)),
  ]);
  return {
    museumId,
    zone: m.zone,
    weekly: m.weekly,
    exceptions: m.exceptions ?? {},
    seasons: seasons.map((s) => ({ startDate: s.startDate, endDate: s.endDate, hours: s.hours })),
    closures: closed.map((c) => ({
      id: c.id,
      from: c.startsAt.getTime(),
      to: c.endsAt.getTime(),
      ticketIds: c.ticketIds,
      quotaIds: c.quotaIds,
      eventIds: c.eventIds,
      tourIds: c.tourIds,
      reason: c.reason,
    })),
  };
}
