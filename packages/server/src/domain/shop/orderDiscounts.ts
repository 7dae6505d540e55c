// What the shop's summary shows as discount lines: each promo code the order was placed with and
// the discount it gave, as recorded when the order's price was calculated (vouchers/promoApply.ts).
import { promoUsesOfOrder } from '../../db/repositories/shop.ts';
import type { Ctx } from '../context.ts';

export function orderDiscounts(ctx: Pick<Ctx, 'db'>, orderId: number): Promise<Array<{ code: string; discountCents: number }>> {
  return promoUsesOfOrder(ctx.db, orderId);
}
