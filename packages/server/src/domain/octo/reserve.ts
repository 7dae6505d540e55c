// OCTO reserve: a pending order of the reseller's account (a hold: same capacity, same
// sellability rule, same per-account hold limits as its go~mus-API holds and pending orders).
// Idempotent by the booking uuid: repeats take the same (account, uuid) lock in turn, and every
// one after the first finds the booking and answers it, so three sends make one hold.
import { findOctoBooking, insertOctoBooking, lockOctoUuid } from '../../db/repositories/octo.ts';
import { transaction } from '../../db/transaction.ts';
import { lockKey } from '../capacity/locks.ts';
import type { Ctx } from '../context.ts';
import { accountOf, viewOf, type OctoBooking, type OctoTarget, type OctoUnitItemRecord } from './internal.ts';
import { placeOctoOrder } from './rebook.ts';

export interface OctoReserveInput {
  uuid: string;
  target: OctoTarget;
  unitItems: OctoUnitItemRecord[];
  notes: string | null;
  resellerReference: string | null;
  contact: Record<string, unknown>;
  testMode: boolean;
  expirationMinutes?: number | undefined;
}

export async function reserveOctoBooking(ctx: Ctx, input: OctoReserveInput): Promise<OctoBooking> {
  const accountId = accountOf(ctx);
  return transaction(ctx.db, async (tx) => {
    await lockOctoUuid(tx, lockKey('octo-booking', accountId, input.uuid));
    const existing = await findOctoBooking(tx, accountId, input.uuid);
    if (existing) return viewOf(tx, ctx, existing);
    const order = await placeOctoOrder(tx, ctx, {
      target: input.target,
      quantity: input.unitItems.length,
      notes: input.notes,
      resellerReference: input.resellerReference,
      testMode: input.testMode,
      finalize: false,
      expirationMinutes: input.expirationMinutes,
    });
    const now = ctx.clock.now();
    const record = await insertOctoBooking(tx, {
      accountId,
      uuid: input.uuid,
      orderId: order.id,
      productId: input.target.productId,
      optionId: input.target.optionId,
      availabilityId: input.target.availabilityId,
      unitItems: input.unitItems,
      contact: input.contact,
      notes: input.notes,
      resellerReference: input.resellerReference,
      testMode: input.testMode,
      createdAt: now,
      updatedAt: now,
    });
    return viewOf(tx, ctx, record);
  });
}
