// Codes held by orders that expired unpaid. A pending order takes its promo-code uses and redeems
// its vouchers when it is placed (promoApply.ts), so a checkout abandoned at the payment page kept
// them for good: a code's last use went to nobody. The capacity sweep's job gives them back once
// the order has been expired for the sweep's grace period, as a cancellation does. Money that
// arrives later revives the order (orders/reviveOrder.ts), which takes them again by the same
// guarded updates; when a code has no use left or its voucher went to another order, the revival
// is refused and the money refunded, as when its places were sold meanwhile.
import { transaction } from '../../db/transaction.ts';
import { codesOfDiscounts, expiredOrdersHoldingCodes, itemIdsOfOrder } from '../../db/repositories/orderCodeLines.ts';
import { insertUse, takeUse } from '../../db/repositories/promoCodes.ts';
import { redeemVoucher } from '../../db/repositories/singlePurposeVouchers.ts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../context.ts';
import { findOrder, statusAt } from '../orders/internal.ts';
import { codeError } from './applied.ts';
import { giveBackOrderCodes } from './orderLines.ts';

/** As the capacity sweep: an order expired this long ago is not being paid any more. */
const GRACE_MS = 5 * 60_000;
const BATCH = 500;

/** Job verb (with the capacity sweep): gives back the codes of orders expired unpaid; how many orders. */
export async function returnCodesOfExpiredOrders(ctx: Ctx): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - GRACE_MS);
  let n = 0;
  for (const id of await expiredOrdersHoldingCodes(ctx.db, before, BATCH)) {
    await transaction(ctx.db, async (tx) => {
      // The order's row lock: a payment settling it waits, then finds the codes given back.
      const order = await findOrder(tx, { ...ctx, db: tx as unknown as Ctx['db'] }, id, true);
      if (statusAt(order, ctx.clock.now()) !== 'expired') return;
      await giveBackOrderCodes(tx, ctx, id, await itemIdsOfOrder(tx, id), true);
      n++;
    });
  }
  return n;
}

/** Takes again the codes a revived order's discounts name and it no longer holds (reviveOrder.ts). */
export async function retakeOrderCodes(tx: Tx, ctx: Ctx, orderId: number): Promise<void> {
  const taken = await codesOfDiscounts(tx, orderId);
  const now = ctx.clock.now();
  for (const p of taken.promos) {
    if (p.held) continue;
    if (!(await takeUse(tx, p.id, now))) throw codeError('CODE_EXHAUSTED', 'a promo code of this order has been used up since it expired');
    await insertUse(tx, { promoCodeId: p.id, orderId, email: taken.email, discountCents: p.cents, createdAt: now });
  }
  for (const v of taken.vouchers) {
    if (v.held) continue;
    if (!(await redeemVoucher(tx, v.id, orderId, now))) throw codeError('CODE_EXHAUSTED', 'a voucher of this order has been redeemed or has expired since');
  }
}
