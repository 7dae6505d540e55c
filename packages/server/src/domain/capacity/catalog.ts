// The catalogue rows a booking or an availability read needs, read through the process's
// master-data memo (ctx.masterData, src/cache/masterData.ts) when there is one. Callers pass the
// handle to read with (a transaction when they are inside one, so a cold miss never waits for a
// second pool connection). Values are shared between requests: never mutate them.
import type { DbOrTx } from '../../db/client.ts';
import { findEventDate, findTicket, findTickets, findTour, type EventDateRow, type TicketRow, type TourRow } from '../../db/repositories/capacityCatalog.ts';
import { masterData, type Ctx } from '../context.ts';

export type { EventDateRow, TicketRow, TourRow };

type Memo = Pick<Ctx, 'masterData'>;

export function ticketById(ctx: Memo, db: DbOrTx, id: number): Promise<TicketRow | null> {
  return masterData(ctx, `ticket:${id}`, () => findTicket(db, id));
}

/** Tickets among `ids` (all tickets for null), in id order; unknown ids are left out. */
export function ticketsByIds(ctx: Memo, db: DbOrTx, ids: number[] | null): Promise<TicketRow[]> {
  const key = ids === null ? 'tickets:*' : `tickets:${[...ids].sort((a, b) => a - b).join(',')}`;
  return masterData(ctx, key, () => findTickets(db, ids));
}

export function eventDateById(ctx: Memo, db: DbOrTx, id: number): Promise<EventDateRow | null> {
  return masterData(ctx, `event_date:${id}`, () => findEventDate(db, id));
}

export function tourById(ctx: Memo, db: DbOrTx, id: number): Promise<TourRow | null> {
  return masterData(ctx, `tour:${id}`, () => findTour(db, id));
}
