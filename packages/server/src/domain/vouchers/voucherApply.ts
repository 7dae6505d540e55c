// A single-purpose voucher named in `codes`: one admission of its ticket at no charge, in any
// slot (the slot's capacity is claimed as for any item). Vouchers for another ticket are refused.
import { voucherByHash } from '../../db/repositories/singlePurposeVouchers.ts';
import type { Ctx } from '../context.ts';
import { codeHash } from './code.ts';
import { codeError as err, voucherLabel, type AppliedCode } from './applied.ts';
import type { PricedItem } from './promoKinds.ts';

export async function evaluateVoucher(ctx: Ctx, code: string, items: PricedItem[], before: AppliedCode[]): Promise<AppliedCode> {
  const v = await voucherByHash(ctx.db, codeHash(code));
  if (!v) throw err('CODE_INVALID', 'this code is not valid; check it for typing errors');
  if (v.voidedAt !== null) throw err('CODE_INVALID', 'this voucher was cancelled with the order that sold it');
  if (v.orderId !== null) throw err('CODE_EXHAUSTED', 'this voucher has been redeemed already');
  if (v.expiresAt <= ctx.clock.now()) throw err('CODE_EXPIRED', 'this voucher has expired');
  // A Voucher line sells vouchers for the ticket; it is not an admission one could redeem on.
  const targets = items.flatMap((i, n) => (i.ticketId === v.ticketId && (i.type ?? 'Ticket') === 'Ticket' ? [n] : []));
  if (targets.length === 0) throw err('VOUCHER_WRONG_TICKET', 'this voucher is for another ticket');
  const used = (n: number) => before.filter((a) => a.voucher && a.parts.some((p) => p.index === n)).length;
  const index = targets.find((n) => used(n) < items[n]!.quantity);
  if (index === undefined) throw err('CODE_NOT_APPLICABLE', 'every admission of this ticket is already paid by a voucher');
  const item = items[index]!;
  const left = item.quantity - used(index);
  // One admission: its share of what the item still costs (the whole rest for its last one).
  const cents = left === 1 ? item.priceCents : Math.floor(item.priceCents / left);
  return { code: null, voucher: v, label: voucherLabel(v.codeLast4), discountCents: cents, parts: cents > 0 ? [{ index, cents }] : [] };
}
