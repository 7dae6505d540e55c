// GET /occupancy: people inside a museum now and today's valid entries and exits (people, not
// scans) per museum-local hour. Somebody who entered on an earlier day and never scanned out does
// not count as inside today: gates without exit scanners would otherwise grow the figure forever.
import { entriesByHour, peopleInside } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { addDays, localDateOf, startOfLocalDay } from '../time.ts';
import { museumInScope } from './scope.ts';

export async function getOccupancy(ctx: Ctx, input: { museum_id: number }) {
  const museum = await museumInScope(ctx, input.museum_id);
  const date = localDateOf(ctx.clock.now(), museum.zone);
  const from = startOfLocalDay(date, museum.zone).toISOString();
  const to = startOfLocalDay(addDays(date, 1), museum.zone).toISOString();
  const inside = await peopleInside(ctx.db, museum.id, from);
  const byHour = await entriesByHour(ctx.db, museum.id, museum.zone, from, to);
  return {
    museum_id: museum.id,
    date,
    inside,
    entries_today: byHour.reduce((s, h) => s + h.entries, 0),
    exits_today: byHour.reduce((s, h) => s + h.exits, 0),
    by_hour: byHour,
  };
}
