// Which live order items a closure shuts (docs/api-contract.md §13 `affected`): active items of pending (not
// expired) and finalized orders of the museum, tested with the rule's own closureHits(), so the
// report lists exactly what availability and booking now refuse.
import type { DbOrTx } from '../../db/client.ts';
import { liveItemsStarting } from '../../db/repositories/schedules/closures.ts';
import { localDateOf, zonedInstant } from '../time.ts';
import { closureHits, type Mode, type Target } from './rule.ts';
import type { ClosureSpan } from './schedule.ts';

export interface Affected {
  orders: number;
  order_ids: number[];
  visitors: number;
}

export interface AffectedItem {
  id: number;
  orderId: number;
  quantity: number;
}

const DAY = 86_400_000;

/** Live items of museum `museumId` that closure `c` shuts, at `now`. */
export async function affectedItems(db: DbOrTx, museumId: number, zone: string, c: ClosureSpan, now: Date): Promise<AffectedItem[]> {
  // Anything that can overlap starts at most a day before the period (tours, events).
  const rows = await liveItemsStarting(db, museumId, new Date(c.from - DAY), new Date(c.to), now);
  return rows
    .filter((r) => {
      const a = r.startAt.getTime();
      let target: Target;
      let mode: Mode;
      let b: number;
      if (r.ticketId !== null) {
        target = { kind: 'ticket', id: r.ticketId, quotaIds: r.quotaIds ?? [] };
        mode = r.ticketType === 'time_slot' ? 'entry' : 'day';
        b = mode === 'entry' ? a + (r.entryDuration ?? 0) * 60_000 : zonedInstant(localDateOf(r.startAt, zone), r.lastEntry ?? 0, zone).getTime();
      } else if (r.eventId !== null) {
        target = { kind: 'event', id: r.eventId };
        mode = 'event';
        b = a + (r.eventDuration ?? 0) * 60_000;
      } else {
        target = { kind: 'tour', id: r.tourId! };
        mode = 'run';
        b = a + (r.tourDuration ?? 0) * 60_000;
      }
      return closureHits(c, target, mode, a, b);
    })
    .map((r) => ({ id: r.id, orderId: r.orderId, quantity: r.quantity }));
}

export function summarise(items: AffectedItem[]): Affected {
  const ids = [...new Set(items.map((i) => i.orderId))].sort((x, y) => x - y);
  return { orders: ids.length, order_ids: ids, visitors: items.reduce((s, i) => s + i.quantity, 0) };
}

