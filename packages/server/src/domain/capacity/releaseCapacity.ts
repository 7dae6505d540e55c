// Releasing is idempotent: the guard `released_at IS NULL` makes a second release (a retried
// DELETE, an expiry job racing a cancel) a no-op instead of freeing capacity twice.
import type { Tx } from '../../db/client.ts';
import { countedAllocationsOf, releaseAllocations } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';
import { allocationLockKey, lockSlots } from './locks.ts';

export async function releaseCapacity(
  tx: Tx,
  ctx: Ctx,
  by: { orderItemIds?: number[]; reservationIds?: number[] },
): Promise<number> {
  if (!by.orderItemIds?.length && !by.reservationIds?.length) return 0;
  // Releasing a permanent allocation changes its slot's running total (capacity_totals, ADR
  // 0011). Every change of a total happens under the slot's lock, so writers never queue on
  // totals rows in an order that could deadlock. Holds and pending orders are not in the totals.
  const counted = await countedAllocationsOf(tx, by);
  await lockSlots(tx, ctx, counted.map((r) => allocationLockKey(r)));
  return releaseAllocations(tx, by, ctx.clock.now());
}
