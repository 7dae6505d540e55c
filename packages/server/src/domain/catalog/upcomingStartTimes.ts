// go~mus `upcoming_bookings_start_times` on events: the museum-local start times
// ("YYYY-MM-DD HH:MM:SS") of an event's next dates that can still be booked. Built on datesPage,
// so visibility, seats and closures are the rules of GET /dates (and `bookable` its answer).
import type { Ctx } from '../context.ts';
import { addDays, localDateOf, startOfLocalDay } from '../time.ts';
import { datesPage } from './datesPage.ts';
import { resolveLocale } from './internal.ts';
import type { View } from './views.ts';

/** At most this many start times per event: go~mus clients show a short "next dates" line. */
export const UPCOMING_MAX = 5;
/** How far ahead to look (days); a date further away is not "upcoming" for a shop's list. */
export const UPCOMING_DAYS = 92;
/** Dates read per statement (as the calendar does): a few statements, never one per event. */
const WINDOW = 2_000;

/** Event id -> its next bookable start times, earliest first (an empty list when none). */
export async function upcomingStartTimes(ctx: Ctx, eventIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(eventIds.map((id) => [id, []]));
  if (eventIds.length === 0) return out;
  const zone = ctx.config.zone;
  const now = ctx.clock.now();
  const range = { from: now, to: startOfLocalDay(addDays(localDateOf(now, zone), UPCOMING_DAYS), zone) };
  const filter = { of: 'list' as const, viewer: ctx.principal, eventIds };
  const L = resolveLocale(ctx, undefined);
  // datesPage lists dates by id, not by time: gather the bookable ones, then keep the earliest.
  const found = new Map<number, Array<{ at: number; time: string }>>();
  for (let page = 1; ; page++) {
    const got = await datesPage(ctx, filter, range, { page, perPage: WINDOW, offset: (page - 1) * WINDOW }, L);
    for (const v of got.items as Array<View & { event_id: number; start_time: string; bookable: boolean }>) {
      if (!v.bookable) continue;
      const list = found.get(v.event_id) ?? [];
      // start_time is ISO 8601 in the museum's zone; go~mus writes the same wall time this way.
      list.push({ at: Date.parse(v.start_time), time: v.start_time.slice(0, 19).replace('T', ' ') });
      found.set(v.event_id, list);
    }
    if (page * got.meta.per_page >= got.meta.total_count || got.items.length === 0) break;
  }
  for (const [id, list] of found) out.set(id, list.sort((a, b) => a.at - b.at).slice(0, UPCOMING_MAX).map((x) => x.time));
  return out;
}
