// Finalising an order makes its allocations permanent. It takes the pools' locks first: a claim
// that saw these allocations as expired (and took their places) holds the same lock, so either it
// has committed and we see the expiry too (ORDER_EXPIRED), or it waits for us and then sees them
// as permanent. Without the lock both could win the same seats.
import type { Tx } from '../../db/client.ts';
import { allocationsOfItems, makeItemsPermanent, tourZones } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { allocationLockKey, lockSlots } from './locks.ts';

export async function confirmCapacity(tx: Tx, ctx: Ctx, orderItemIds: number[]): Promise<void> {
  if (orderItemIds.length === 0) return;
  const rows = await allocationsOfItems(tx, orderItemIds);
  if (rows.length === 0) return; // unlimited products only: nothing is counted
  const zones = await tourZones(tx, [...new Set(rows.filter((r) => r.resource === 'tour').map((r) => r.resourceId))]);
  const keys = rows.map((r) => allocationLockKey(r, zones.get(r.resourceId)));
  await lockSlots(tx, ctx, keys);

  const now = ctx.clock.now();
  const fresh = await allocationsOfItems(tx, orderItemIds);
  if (fresh.some((r) => r.releasedAt !== null || (r.expiresAt !== null && r.expiresAt <= now))) {
    throw new DomainError('ORDER_EXPIRED', 'order expired: its places are no longer held');
  }
  await makeItemsPermanent(tx, orderItemIds);
}
