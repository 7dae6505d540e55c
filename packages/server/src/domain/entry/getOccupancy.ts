// GET /occupancy: people inside a museum now and today's valid entries and exits (people, not
// scans) per museum-local hour. Somebody who entered on an earlier day and never scanned out does
// not count as inside today: gates without exit scanners would otherwise grow the figure forever.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { addDays, localDateOf, startOfLocalDay } from '../time.ts';
import { museumInScope } from './scope.ts';

export async function getOccupancy(ctx: Ctx, input: { museum_id: number }) {
  const museum = await museumInScope(ctx, input.museum_id);
  const date = localDateOf(ctx.clock.now(), museum.zone);
  const from = startOfLocalDay(date, museum.zone).toISOString();
  const to = startOfLocalDay(addDays(date, 1), museum.zone).toISOString();
  const inside = await ctx.db.execute<{ n: string | null }>(sql`
    select sum(inside_people) as n from entry_states
     where museum_id = ${museum.id} and inside_people > 0 and last_entry_at >= ${from}`);
  const hours = await ctx.db.execute<{ hour: number; entries: string; exits: string }>(sql`
    select extract(hour from scanned_at at time zone ${museum.zone})::int as hour,
           coalesce(sum(people_count) filter (where direction = 'entry'), 0) as entries,
           coalesce(sum(people_count) filter (where direction = 'exit'), 0) as exits
      from scans
     where museum_id = ${museum.id} and result = 'valid' and scanned_at >= ${from} and scanned_at < ${to}
     group by 1 order by 1`);
  const byHour = hours.rows.map((h) => ({ hour: Number(h.hour), entries: Number(h.entries), exits: Number(h.exits) }));
  return {
    museum_id: museum.id,
    date,
    inside: Number(inside.rows[0]?.n ?? 0),
    entries_today: byHour.reduce((s, h) => s + h.entries, 0),
    exits_today: byHour.reduce((s, h) => s + h.exits, 0),
    by_hour: byHour,
  };
}
