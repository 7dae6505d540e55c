// Changes a hold's quantity and restarts its validity, never beyond the lifetime cap fixed at
// creation. The old allocation is released and the new one claimed under the slot's lock in one
// transaction: growing re-checks capacity (its own old quantity counts as free), and a refusal
// rolls back to the unchanged hold.
import { resizeReservation } from '../../db/repositories/reservations.ts';
import { transaction } from '../../db/transaction.ts';
import { claimCapacity, resolveClaims } from '../capacity/claimCapacity.ts';
import { checkHoldLimits } from '../capacity/holdLimits.ts';
import type { Claim } from '../capacity/types.ts';
import type { Ctx } from '../context.ts';
import { expired, isLive, lockOwnRows } from './internal.ts';
import { museumZoneOf, toView, type ReservationView } from './view.ts';

export async function updateReservation(ctx: Ctx, input: { token: string; quantity: number }): Promise<ReservationView> {
  const row = await transaction(ctx.db, async (tx) => {
    const [r] = await lockOwnRows(tx, ctx, [input.token]);
    const now = ctx.clock.now();
    if (!isLive(r!, now)) throw expired();
    const expiresAt = new Date(Math.min(now.getTime() + ctx.config.holdMinutes * 60_000, r!.lifetimeEndsAt.getTime()));
    const claim: Claim =
      r!.ticketId !== null
        ? { kind: 'ticket', ticketId: r!.ticketId, startAt: r!.startAt, quantity: input.quantity }
        : { kind: 'event_date', eventDateId: r!.eventDateId!, quantity: input.quantity };
    // Growing a hold is holding more: the per-account limits apply (this hold's own old
    // quantity is replaced, not added). The check's account lock comes after the hold's row
    // lock and before the pools' locks (locks.ts).
    if (input.quantity > r!.quantity) await checkHoldLimits(tx, ctx, await resolveClaims(tx, ctx, [claim]), { exceptReservationTokens: [r!.token] });
    await claimCapacity(tx, ctx, [{ claim, holder: { reservationId: r!.id }, expiresAt }], { releaseReservationIds: [r!.id] });
    return resizeReservation(tx, r!.id, input.quantity, expiresAt);
  });
  return toView(row, await museumZoneOf(ctx.db, row));
}
