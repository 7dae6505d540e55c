// Event dates through the sellability rule: GET /dates, /events/:id/dates and the date answers
// show `bookable: false, closed: true` for a date the rule refuses (docs/api-contract.md §13).
import type { DbOrTx } from '../../db/client.ts';
import type { Ctx } from '../context.ts';
import { closedReason } from './rule.ts';
import { schedulesOf, type Schedule } from './schedule.ts';

export interface DateRef {
  museumId: number;
  eventId: number;
  startAt: Date;
  duration: number;
}

/** Whether each date is closed (same order as `dates`). */
export async function closedEventDates(ctx: Pick<Ctx, 'masterData'>, db: DbOrTx, dates: DateRef[]): Promise<boolean[]> {
  return closedIn(await schedulesOf(ctx, db, dates.map((d) => d.museumId)), dates);
}

/** The same, with the museums' schedules already read (GET /dates reads them with its page). */
export function closedIn(scheds: ReadonlyMap<number, Schedule>, dates: DateRef[]): boolean[] {
  return dates.map((d) => {
    const s = scheds.get(d.museumId);
    const end = new Date(d.startAt.getTime() + d.duration * 60_000);
    return s ? closedReason(s, { kind: 'event', id: d.eventId }, 'event', d.startAt, end) !== null : false;
  });
}
