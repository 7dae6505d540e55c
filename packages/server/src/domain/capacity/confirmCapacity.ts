// Finalising an order makes its allocations permanent. It takes the pools' locks first: a claim
// that saw these allocations as expired (and took their places) holds the same lock, so either it
// has committed and we see the expiry too (ORDER_EXPIRED), or it waits for us and then sees them
// as permanent. Without the lock both could win the same seats.
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { capacityAllocations as ca, museums, tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { allocationLockKey, lockSlots } from './locks.ts';

export async function confirmCapacity(tx: Tx, ctx: Ctx, orderItemIds: number[]): Promise<void> {
  if (orderItemIds.length === 0) return;
  const rows = await tx.select().from(ca).where(inArray(ca.orderItemId, orderItemIds));
  if (rows.length === 0) return; // unlimited products only: nothing is counted
  const tourIds = [...new Set(rows.filter((r) => r.resource === 'tour').map((r) => r.resourceId))];
  const zones = new Map<number, string>();
  if (tourIds.length) {
    const zs = await tx
      .select({ id: tours.id, zone: museums.timeZone })
      .from(tours)
      .innerJoin(museums, eq(museums.id, tours.museumId))
      .where(inArray(tours.id, tourIds));
    for (const z of zs) zones.set(z.id, z.zone);
  }
  const keys = rows.map((r) => allocationLockKey(r, zones.get(r.resourceId)));
  await lockSlots(tx, ctx, keys);

  const now = ctx.clock.now();
  const fresh = await tx.select().from(ca).where(inArray(ca.orderItemId, orderItemIds));
  if (fresh.some((r) => r.releasedAt !== null || (r.expiresAt !== null && r.expiresAt <= now))) {
    throw new DomainError('ORDER_EXPIRED', 'order expired: its places are no longer held');
  }
  await tx.update(ca).set({ expiresAt: null }).where(inArray(ca.orderItemId, orderItemIds));
}
