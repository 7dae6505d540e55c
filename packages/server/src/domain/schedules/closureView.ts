// A closure as the API shows it (docs/api-contract.md §13).
import type { closures } from '../../db/schema/index.ts';
import { clock } from './closureInput.ts';
import type { ClosureSpan } from './schedule.ts';

type Row = typeof closures.$inferSelect;

export function closureView(c: Row) {
  return {
    id: c.id,
    museum_id: c.museumId,
    start_date: c.startDate,
    end_date: c.endDate,
    start_time: clock(c.startTime),
    end_time: clock(c.endTime),
    ticket_ids: c.ticketIds,
    quota_ids: c.quotaIds,
    event_ids: c.eventIds,
    tour_ids: c.tourIds,
    reason: c.reason,
    created_at: c.createdAt.toISOString(),
  };
}
export type ClosureView = ReturnType<typeof closureView>;

export function spanOf(c: Row): ClosureSpan {
  return {
    id: c.id, from: c.startsAt.getTime(), to: c.endsAt.getTime(),
    ticketIds: c.ticketIds, quotaIds: c.quotaIds, eventIds: c.eventIds, tourIds: c.tourIds, reason: c.reason,
  };
}
