// Applying `codes` to an order or a reservation (docs/vouchers.md). `discountItems` runs inside the
// one price calculation (createOrder after prepareItems; createReservation for its preview): it
// checks each code's limits against the priced items and lowers the prices of the items it
// applies to, so the total, the items and the invoice lines all carry the discount. A code is a
// promo code or a single-purpose voucher (voucherApply.ts); vouchers go first, as they make one
// admission free whatever else applies. `recordUses` runs in the order's transaction: one guarded
// update per code takes a use (or redeems the voucher), so two orders racing for a code's last
// use give exactly one discount; the loser's transaction rolls back and its order is not placed.
import type { Tx } from '../../db/client.ts';
import { insertDiscounts } from '../../db/repositories/orderDiscounts.ts';
import { insertUse, promoCodeByCode, promoCodeById, setUsesUnguarded, takeUse, usesByEmail, type PromoCodeRow } from '../../db/repositories/promoCodes.ts';
import { redeemVoucher } from '../../db/repositories/singlePurposeVouchers.ts';
import type { Ctx } from '../context.ts';
import { localDateOf } from '../time.ts';
import { normalizeCode } from './code.ts';
import { codeError as err, type AppliedCode } from './applied.ts';
import { discountsOf, type PricedItem } from './promoKinds.ts';
import { normalizePromo, type PromoChannel } from './promoCodes.ts';
import { isCodeLine } from './orderLines.ts';
import { evaluateVoucher } from './voucherApply.ts';

export type { AppliedCode } from './applied.ts';

export function channelOf(ctx: Ctx): PromoChannel {
  if (ctx.channel === 'desk') return 'desk';
  return ctx.principal.kind === 'account' && ctx.principal.access === 'reseller' ? 'reseller' : 'shop';
}

function visitOk(c: PromoCodeRow, i: PricedItem): boolean {
  const day = localDateOf(i.startAt, i.zone);
  return (!c.visitFrom || day >= c.visitFrom) && (!c.visitUntil || day <= c.visitUntil);
}

function applies(c: PromoCodeRow, i: PricedItem): boolean {
  if (isCodeLine(i.type ?? '')) return false;
  const anyProduct = c.ticketIds.length + c.eventIds.length + c.tourIds.length === 0;
  const product = anyProduct || (i.ticketId !== null && c.ticketIds.includes(i.ticketId)) || (i.eventId !== null && c.eventIds.includes(i.eventId))
    || (i.tourId !== null && c.tourIds.includes(i.tourId));
  return product && visitOk(c, i);
}

/** Checks a promo code against the items as they stand; the discount it gives on each. */
function evaluatePromo(ctx: Ctx, c: PromoCodeRow, items: PricedItem[]): AppliedCode {
  const now = ctx.clock.now();
  if (!c.active) throw err('CODE_INVALID', 'this code is not valid; check it for typing errors');
  if (c.saleUntil && now >= c.saleUntil) throw err('CODE_EXPIRED', 'this promo code has expired');
  if (c.saleFrom && now < c.saleFrom) throw err('CODE_NOT_APPLICABLE', 'this promo code is not valid yet');
  if (c.maxUses !== null && c.uses >= c.maxUses) throw err('CODE_EXHAUSTED', 'this promo code has been used up');
  if (c.channels.length && !c.channels.includes(channelOf(ctx))) throw err('CODE_NOT_APPLICABLE', `this promo code is not valid for sales through ${channelOf(ctx)}`);
  const eligible = items.flatMap((i, n) => (applies(c, i) ? [n] : []));
  const quantity = eligible.reduce((s, n) => s + items[n]!.quantity, 0);
  if (eligible.length === 0 || quantity < c.minQuantity) {
    throw err('CODE_NOT_APPLICABLE', c.minQuantity > 1 ? `this promo code needs at least ${c.minQuantity} matching items` : 'this promo code applies to none of these items');
  }
  const companions = c.companionTicketId === null ? [] : items.flatMap((i, n) => (i.ticketId === c.companionTicketId && visitOk(c, i) ? [n] : []));
  const parts = [...discountsOf(c, items, eligible, companions)].filter(([, cents]) => cents > 0).map(([index, cents]) => ({ index, cents }));
  const discountCents = parts.reduce((s, p) => s + p.cents, 0);
  if (discountCents === 0) throw err('CODE_NOT_APPLICABLE', 'this promo code gives no discount on these items');
  return { code: c, voucher: null, label: c.code, discountCents, parts };
}

/**
 * Lowers item prices by each code's discount. A refused code throws before any price changed in
 * the caller's eyes: nothing has been written yet.
 */
export async function discountItems(ctx: Ctx, codes: string[], items: PricedItem[]): Promise<AppliedCode[]> {
  if (new Set(codes.map(normalizePromo)).size !== codes.length) throw err('CODE_INVALID', 'a code is named more than once');
  const promos: PromoCodeRow[] = [];
  const vouchers: string[] = [];
  for (const typed of codes) {
    const c = await promoCodeByCode(ctx.db, normalizePromo(typed));
    const v = c ? null : normalizeCode(typed);
    if (c) promos.push(c);
    else if (v) vouchers.push(v);
    else throw err('CODE_INVALID', 'this code is not valid; check it for typing errors');
  }
  const out: AppliedCode[] = [];
  const apply = (a: AppliedCode) => {
    for (const p of a.parts) items[p.index]!.priceCents -= p.cents;
    out.push(a);
  };
  for (const v of vouchers) apply(await evaluateVoucher(ctx, v, items, out));
  for (const c of promos) apply(evaluatePromo(ctx, c, items));
  return out;
}

/**
 * Takes one use of each applied code for the order (or redeems the voucher), in its transaction,
 * and records what it took off each item; refuses past the limits.
 */
export async function recordUses(tx: Tx, ctx: Ctx, order: { id: number; items: Array<{ id: number }> }, applied: AppliedCode[], email: string | null): Promise<void> {
  const now = ctx.clock.now();
  for (const a of applied) {
    if (a.voucher) {
      if (!(await redeemVoucher(tx, a.voucher.id, order.id, now))) throw err('CODE_EXHAUSTED', 'this voucher has been redeemed already');
    } else {
      await takePromoUse(tx, ctx, order.id, a, email, now);
    }
    await insertDiscounts(tx, a.parts.map((p) => ({
      orderId: order.id, orderItemId: order.items[p.index]!.id, promoCodeId: a.code?.id ?? null, voucherId: a.voucher?.id ?? null, amountCents: p.cents, createdAt: now,
    })));
  }
}

async function takePromoUse(tx: Tx, ctx: Ctx, orderId: number, a: AppliedCode, email: string | null, now: Date) {
  const code = a.code!;
  // The guarded update also locks the code's row: per-e-mail counts below are read after any
  // concurrent order with this code committed or rolled back.
  const taken = ctx.testing?.unguardedPromoUses ? await unguardedTake(tx, code.id) : await takeUse(tx, code.id, now);
  if (!taken) throw err('CODE_EXHAUSTED', 'this promo code has been used up');
  if (code.maxUsesPerEmail !== null) {
    if (!email) throw err('CODE_NOT_APPLICABLE', 'this promo code needs the customer’s e-mail address');
    if ((await usesByEmail(tx, code.id, email)) >= code.maxUsesPerEmail) throw err('CODE_EXHAUSTED', 'this promo code has been used up for this e-mail address');
  }
  await insertUse(tx, { promoCodeId: code.id, orderId, email, discountCents: a.discountCents, createdAt: now });
}

/**
 * The race's control run: reads the count, then writes count + 1 with no guard (a lost update).
 * The gap is wide enough for the other order to read before this one commits on a busy machine.
 */
async function unguardedTake(tx: Tx, id: number): Promise<PromoCodeRow | undefined> {
  const c = await promoCodeById(tx, id);
  if (!c || (c.maxUses !== null && c.uses >= c.maxUses)) return undefined;
  await new Promise((r) => setTimeout(r, 250));
  await setUsesUnguarded(tx, id, c.uses + 1);
  return c;
}
