import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { openingOn } from '../schedules/rule.ts';
import { scheduleOf } from '../schedules/schedule.ts';
import { isoInZone, isValidDate, localDateOf } from '../time.ts';
import { findMuseum } from './lookups.ts';

export type OpeningHoursAnswer =
  | { opening_hours: { begin: string; end: string } }
  | { opening_hours: null; closed: true; reason: string };

/**
 * Opening hours of one museum-local day as the sellability rule sees them (domain/schedules:
 * date exception, else season, else weekly hours; a whole-museum closure of all the hours closes
 * the day). Closing at 24:00 or later is on the next day, so instants are right on DST days.
 */
export async function getOpeningHours(ctx: Ctx, input: { id: number; date?: string | undefined }): Promise<OpeningHoursAnswer> {
  const museum = await findMuseum(ctx, input.id);
  const zone = museum.timeZone;
  const date = input.date ?? localDateOf(ctx.clock.now(), zone);
  if (!isValidDate(date)) throw invalid('date must be a valid date (YYYY-MM-DD)');
  const s = await scheduleOf(ctx, ctx.db, museum.id);
  const day = s ? openingOn(s, date) : { open: null, reason: 'unknown museum' };
  if (!day.open) return { opening_hours: null, closed: true, reason: day.reason };
  return { opening_hours: { begin: isoInZone(day.open.from, zone), end: isoInZone(day.open.to, zone) } };
}
