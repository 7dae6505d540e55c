// Releasing is idempotent: the guard `released_at IS NULL` makes a second release (a retried
// DELETE, an expiry job racing a cancel) a no-op instead of freeing capacity twice.
import { and, inArray, isNull, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { capacityAllocations as ca } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';

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
  const rows = await tx
    .update(ca)
    .set({ releasedAt: ctx.clock.now() })
    .where(and(isNull(ca.releasedAt), or(...owners)))
    .returning({ id: ca.id });
  return rows.length;
}
