// go~mus GET /tickets/calendar?depth=all (docs/reference/gomus-v4-facts.md §3.5, §4.4): per day
// the quotas of the tickets with what is left per slot, `{"quota": {id, tickets, capacities:
// [{"2016-07-06 11:00:00 +0200": 100}, ...]}}`. The slot keys use the format go~mus documents for
// this one answer (Ruby's default, not ISO 8601). The numbers are GET /tickets/capacities' for
// each day of the same range as depth=any (quotaCapacitiesOn): one rule for what is left.
import type { Ctx } from '../context.ts';
import { isoInZone, localDateOf } from '../time.ts';
import { calendarRange } from './getTicketCalendar.ts';
import { quotaCapacitiesOn } from './getTicketCapacities.ts';
import { freeHolds, usage, visibleTickets } from './internal.ts';

export interface CalendarQuota {
  quota: { id: number; tickets: number[]; capacities: Array<Record<string, number>> };
}

/** "2016-07-06T11:00:00+02:00" → "2016-07-06 11:00:00 +0200". */
export function rubyTime(instant: Date, zone: string): string {
  const iso = isoInZone(instant, zone);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} ${iso.slice(19).replace(':', '')}`.replace(' Z', ' +0000');
}

export async function getTicketCalendarQuotas(
  ctx: Ctx,
  input: { ticketIds?: number[] | undefined; startAt?: string | undefined; endAt?: string | undefined; reservations?: string[] | undefined },
): Promise<Array<[string, CalendarQuota[]]>> {
  const tix = await visibleTickets(ctx, input.ticketIds?.length ? input.ticketIds : null);
  const now = ctx.clock.now();
  const dates = calendarRange(localDateOf(now, tix[0]?.zone ?? ctx.config.zone), input.startAt, input.endAt);
  // Used capacity of the whole range in one read; each day is then computed from it, as
  // GET /tickets/capacities computes its one day (quotaCapacitiesOn), so a year is no 366 reads.
  const u = tix.length === 0 ? undefined : await usage(ctx, now, tix, dates, await freeHolds(ctx, input.reservations));
  const out: Array<[string, CalendarQuota[]]> = [];
  for (const date of dates) {
    const groups = u ? quotaCapacitiesOn(tix, date, now, u) : [];
    out.push([
      date,
      groups.map((g) => ({
        quota: {
          id: g.quotaId,
          tickets: g.tickets,
          capacities: [...g.capacities.entries()].sort((a, b) => a[0] - b[0]).map(([at, left]) => ({ [rubyTime(new Date(at), g.zone)]: left })),
        },
      })),
    ]);
  }
  return out;
}
