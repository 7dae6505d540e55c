// An order's discounts as shown (docs/vouchers.md): per code and item, the amount it took off.
// Vouchers are named by their last four characters only. Event snapshots carry the same rows
// (src/db/sql/order_snapshot.sql, read by snapshot.ts).
import type { DbOrTx } from '../../db/client.ts';
import { discountsOfOrders } from '../../db/repositories/orderDiscounts.ts';
import { voucherLabel, type AppliedCode } from '../vouchers/applied.ts';

export interface OrderDiscountView {
  code: string;
  amountCents: number;
  orderItemId: number;
}

export async function discountsByOrder(db: DbOrTx, orderIds: number[]): Promise<Map<number, OrderDiscountView[]>> {
  const out = new Map<number, OrderDiscountView[]>();
  for (const r of await discountsOfOrders(db, orderIds)) {
    const list = out.get(r.orderId) ?? [];
    list.push({ code: r.promoCode ?? voucherLabel(r.voucherLast4 ?? ''), amountCents: r.amountCents, orderItemId: r.orderItemId });
    out.set(r.orderId, list);
  }
  return out;
}

export function discountViews(applied: AppliedCode[], itemIds: number[]): OrderDiscountView[] {
  return applied.flatMap((a) => a.parts.map((p) => ({ code: a.label, amountCents: p.cents, orderItemId: itemIds[p.index]! })));
}
