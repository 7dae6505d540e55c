// Visitors by museum-local hour over a date range, from the entry scans (domain/entry): people
// admitted by a valid entry scan, the same count GET /occupancy shows for today
// (entry/getOccupancy.ts). Exits are listed beside them; refused scans never count.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { addDays } from '../time.ts';
import { museumIdsOf, reportScope, type ReportInput } from './range.ts';

export interface VisitorsRow {
  date: string;
  hour: number;
  entries: number;
  exits: number;
}
export interface VisitorsReport {
  from: string;
  to: string;
  /** Per day and hour, only hours with scans, in order. */
  rows: VisitorsRow[];
  /** Hours 0–23 summed over the range (all 24, zeros included). */
  by_hour: Array<{ hour: number; entries: number; exits: number }>;
  total: { entries: number; exits: number };
}

export async function visitorsReport(ctx: Ctx, input: ReportInput): Promise<VisitorsReport> {
  const scope = await reportScope(ctx, input);
  const lo = `${addDays(scope.from, -1)}T00:00:00Z`; // coarse window for the (museum_id, scanned_at) index
  const hi = `${addDays(scope.to, 2)}T00:00:00Z`;
  const r = await ctx.db.execute<{ date: string; hour: number; entries: string; exits: string }>(sql`
    select to_char((s.scanned_at at time zone m.time_zone)::date, 'YYYY-MM-DD') as date,
           extract(hour from s.scanned_at at time zone m.time_zone)::int as hour,
           coalesce(sum(s.people_count) filter (where s.direction = 'entry'), 0) as entries,
           coalesce(sum(s.people_count) filter (where s.direction = 'exit'), 0) as exits
      from scans s join museums m on m.id = s.museum_id
     where s.museum_id = any(${sql.param(museumIdsOf(scope))}::int[]) and s.result = 'valid'
       and s.scanned_at >= ${lo}::timestamptz and s.scanned_at < ${hi}::timestamptz
       and (s.scanned_at at time zone m.time_zone)::date between ${scope.from}::date and ${scope.to}::date
     group by 1, 2 order by 1, 2`);
  const rows = r.rows.map((x) => ({ date: x.date, hour: Number(x.hour), entries: Number(x.entries), exits: Number(x.exits) }));
  const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, entries: 0, exits: 0 }));
  for (const x of rows) {
    byHour[x.hour]!.entries += x.entries;
    byHour[x.hour]!.exits += x.exits;
  }
  const total = { entries: rows.reduce((s, x) => s + x.entries, 0), exits: rows.reduce((s, x) => s + x.exits, 0) };
  return { from: scope.from, to: scope.to, rows, by_hour: byHour, total };
}
