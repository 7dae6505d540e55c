import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, isoInZone, isValidDate, localDateOf, weekdayIndex, zonedInstant } from '../time.ts';
import { findMuseum } from './lookups.ts';

/**
 * Opening hours of one museum-local day: a date exception wins over the weekly hours (an
 * exception of null closes the day). Closing at 24:00 or later is expressed on the next day so
 * the instant is right on 23- and 25-hour days too.
 */
export async function getOpeningHours(
  ctx: Ctx,
  input: { id: number; date?: string | undefined },
): Promise<{ begin: string; end: string } | null> {
  const museum = await findMuseum(ctx, input.id);
  const zone = museum.timeZone;
  const date = input.date ?? localDateOf(ctx.clock.now(), zone);
  if (!isValidDate(date)) throw invalid('date must be a valid date (YYYY-MM-DD)');
  const hours = Object.prototype.hasOwnProperty.call(museum.openingExceptions, date)
    ? museum.openingExceptions[date]
    : museum.openingHours[weekdayIndex(date)];
  if (!hours) return null;
  const at = (minutes: number) => zonedInstant(addDays(date, Math.floor(minutes / 1440)), minutes % 1440, zone);
  return { begin: isoInZone(at(hours[0]), zone), end: isoInZone(at(hours[1]), zone) };
}
