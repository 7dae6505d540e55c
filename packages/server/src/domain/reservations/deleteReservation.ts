// Releases a hold at once. Repeating it (or deleting a hold that already lapsed) is harmless and
// answers the same; a hold that an order has consumed is no longer the caller's to release.
import { eq } from 'drizzle-orm';
import { reservations } from '../../db/schema/index.ts';
import { releaseCapacity } from '../capacity/index.ts';
import type { Ctx } from '../context.ts';
import { expired, lockOwnRows } from './internal.ts';

export async function deleteReservation(ctx: Ctx, input: { token: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [r] = await lockOwnRows(tx, ctx, [input.token]);
    if (r!.consumedAt !== null) throw expired();
    if (r!.releasedAt !== null) return;
    await releaseCapacity(tx, ctx, { reservationIds: [r!.id] });
    await tx.update(reservations).set({ releasedAt: ctx.clock.now() }).where(eq(reservations.id, r!.id));
  });
}
