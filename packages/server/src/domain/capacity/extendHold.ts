// Extending a pending order's hold (OCTO `extend`, and `expirationMinutes` on reserve). Under the
// pools' locks, like confirmCapacity: a claim that saw these allocations as expired and took
// their places holds the same lock, so either it committed first and we see the expiry
// (ORDER_EXPIRED), or it waits and then sees the later expiry. Never past the hold's lifetime cap.
import type { Tx } from '../../db/client.ts';
import { allocationsOfItems, tourZones } from '../../db/repositories/capacity.ts';
import { moveHoldExpiry } from '../../db/repositories/octo.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { allocationLockKey, lockSlots } from './locks.ts';

export async function extendHold(tx: Tx, ctx: Ctx, order: { id: number; createdAt: Date }, itemIds: number[], minutes: number): Promise<Date> {
  const now = ctx.clock.now();
  const cap = order.createdAt.getTime() + ctx.config.holdMaxMinutes * 60_000;
  const expiresAt = new Date(Math.min(now.getTime() + minutes * 60_000, cap));
  if (expiresAt <= now) throw new DomainError('HOLD_LIMIT_EXCEEDED', `a hold lasts at most ${ctx.config.holdMaxMinutes} minutes from its creation`);
  const rows = await allocationsOfItems(tx, itemIds);
  if (rows.length) {
    const zones = await tourZones(tx, [...new Set(rows.filter((r) => r.resource === 'tour').map((r) => r.resourceId))]);
    await lockSlots(tx, ctx, rows.map((r) => allocationLockKey(r, zones.get(r.resourceId))));
    const fresh = await allocationsOfItems(tx, itemIds);
    if (fresh.some((r) => r.releasedAt !== null || (r.expiresAt !== null && r.expiresAt <= now))) {
      throw new DomainError('ORDER_EXPIRED', 'order expired: its places are no longer held');
    }
  }
  await moveHoldExpiry(tx, order.id, itemIds, expiresAt, now);
  return expiresAt;
}
