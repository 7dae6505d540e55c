// What the shop's summary shows as discount lines: each promo code or single-purpose voucher the
// order was placed with and what it took off in all, as recorded when the order's price was
// calculated (vouchers/promoApply.ts). The order answer's own rows (orders/discounts.ts), summed
// per code: a voucher's admission shows as its discount just as a promo code's does.
import type { Ctx } from '../context.ts';
import { discountsByOrder } from '../orders/discounts.ts';

export async function orderDiscounts(ctx: Pick<Ctx, 'db'>, orderId: number): Promise<Array<{ code: string; discountCents: number }>> {
  const out = new Map<string, { code: string; discountCents: number }>();
  for (const d of (await discountsByOrder(ctx.db, [orderId])).get(orderId) ?? []) {
    const line = out.get(d.code) ?? { code: d.code, discountCents: 0 };
    line.discountCents += d.amountCents;
    out.set(d.code, line);
  }
  return [...out.values()];
}
