// Releasing is idempotent: the guard `released_at IS NULL` makes a second release (a retried
// DELETE, an expiry job racing a cancel) a no-op instead of freeing capacity twice.
import { and, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { capacityAllocations as ca } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { allocationLockKey, lockSlots } from './locks.ts';

export async function releaseCapacity(
  tx: Tx,
  ctx: Ctx,
  by: { orderItemIds?: number[]; reservationIds?: number[] },
): Promise<number> {
  const owners = [
    by.orderItemIds?.length ? inArray(ca.orderItemId, by.orderItemIds) : undefined,
    by.reservationIds?.length ? inArray(ca.reservationId, by.reservationIds) : undefined,
  ].filter((c) => c !== undefined);
  if (owners.length === 0) return 0;
  const live = and(isNull(ca.releasedAt), or(...owners));
  // Releasing a permanent allocation changes its slot's running total (capacity_totals, ADR
  // 0011). Every change of a total happens under the slot's lock, so writers never queue on
  // totals rows in an order that could deadlock. Holds and pending orders are not in the totals.
  const counted = await tx
    .select({ resource: ca.resource, resourceId: ca.resourceId, slotStart: ca.slotStart })
    .from(ca)
    .where(and(live, isNull(ca.expiresAt), ne(ca.resource, 'tour')));
  await lockSlots(tx, ctx, counted.map((r) => allocationLockKey(r)));
  const rows = await tx.update(ca).set({ releasedAt: ctx.clock.now() }).where(live).returning({ id: ca.id });
  return rows.length;
}
