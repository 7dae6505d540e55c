// Releases a hold at once. Repeating it (or deleting a hold that already lapsed) is harmless and
// answers the same; a hold that an order has consumed is no longer the caller's to release.
import { markReservationReleased } from '../../db/repositories/reservations.ts';
import { transaction } from '../../db/transaction.ts';
import { releaseCapacity } from '../capacity/releaseCapacity.ts';
import type { Ctx } from '../context.ts';
import { expired, lockOwnRows } from './internal.ts';

export async function deleteReservation(ctx: Ctx, input: { token: string }): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const [r] = await lockOwnRows(tx, ctx, [input.token]);
    if (r!.consumedAt !== null) throw expired();
    if (r!.releasedAt !== null) return;
    await releaseCapacity(tx, ctx, { reservationIds: [r!.id] });
    await markReservationReleased(tx, r!.id, ctx.clock.now());
  });
}
