// Claims the places of order items again after their allocations lapsed (a pending order that
// expired and is then paid: docs/payments.md). Not a second definition of capacity: the lapsed
// rows count for nothing, so they are dropped, and the places are claimed by the one claim
// (claimCapacity: the sellability rule in resolve.ts, the pools' locks and capacity_claim), all
// or nothing. A refusal (SLOT_SOLD_OUT, CLOSED, DATE_IN_PAST, …) is thrown as for a new booking;
// the caller runs this in a savepoint so the drop is undone with it.
import type { Tx } from '../../db/client.ts';
import { dropLapsedItemAllocations } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';
import { claimCapacity } from './claimCapacity.ts';
import type { Claim } from './types.ts';

export interface LapsedItem {
  id: number;
  quantity: number;
  ticketId: number | null;
  eventDateId: number | null;
  tourId: number | null;
  languageId: number | null;
  startAt: Date;
}

function claimOf(i: LapsedItem): Claim {
  if (i.ticketId !== null) return { kind: 'ticket', ticketId: i.ticketId, startAt: i.startAt, quantity: i.quantity };
  if (i.eventDateId !== null) return { kind: 'event_date', eventDateId: i.eventDateId, quantity: i.quantity };
  return { kind: 'tour', tourId: i.tourId!, startAt: i.startAt, languageId: i.languageId!, participants: i.quantity };
}

export async function reclaimCapacity(tx: Tx, ctx: Ctx, items: LapsedItem[], expiresAt: Date): Promise<void> {
  await dropLapsedItemAllocations(tx, items.map((i) => i.id), ctx.clock.now());
  await claimCapacity(tx, ctx, items.map((i) => ({ claim: claimOf(i), holder: { orderItemId: i.id }, expiresAt })));
}
