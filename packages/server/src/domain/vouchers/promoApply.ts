// Applying promo codes to an order (docs/vouchers.md). `discountItems` runs inside the order's one
// price calculation (createOrder, after prepareItems): it checks each code's limits against the
// priced items and lowers the prices of the items it applies to, so the order total, the items and
// the invoice lines all carry the discount. `recordUses` runs in the order's transaction: one
// guarded update per code takes a use, so two orders racing for a code's last use give exactly
// one discount; the loser's transaction rolls back and its order is not placed.
import type { Tx } from '../../db/client.ts';
import { insertUse, promoCodeByCode, promoCodeById, setUsesUnguarded, takeUse, usesByEmail, type PromoCodeRow } from '../../db/repositories/promoCodes.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { PreparedItem } from '../orders/items.ts';
import { localDateOf } from '../time.ts';
import { normalizePromo, type PromoChannel } from './promoCodes.ts';

export interface AppliedCode {
  code: PromoCodeRow;
  discountCents: number;
}

const err = (code: 'CODE_INVALID' | 'CODE_EXHAUSTED' | 'CODE_EXPIRED' | 'CODE_NOT_APPLICABLE', msg: string) => new DomainError(code, msg);

export function channelOf(ctx: Ctx): PromoChannel {
  if (ctx.channel === 'desk') return 'desk';
  return ctx.principal.kind === 'account' && ctx.principal.access === 'reseller' ? 'reseller' : 'shop';
}

function applies(c: PromoCodeRow, i: PreparedItem): boolean {
  const anyProduct = c.ticketIds.length + c.eventIds.length + c.tourIds.length === 0;
  const product = anyProduct || (i.ticketId !== null && c.ticketIds.includes(i.ticketId)) || (i.eventId !== null && c.eventIds.includes(i.eventId))
    || (i.tourId !== null && c.tourIds.includes(i.tourId));
  const day = localDateOf(i.startAt, i.zone);
  return product && (!c.visitFrom || day >= c.visitFrom) && (!c.visitUntil || day <= c.visitUntil);
}

/** Checks a code against the order; the discount it gives and the items it applies to. */
async function evaluate(ctx: Ctx, typed: string, items: PreparedItem[]): Promise<{ code: PromoCodeRow; eligible: PreparedItem[]; discount: number }> {
  const c = await promoCodeByCode(ctx.db, normalizePromo(typed));
  if (!c || !c.active) throw err('CODE_INVALID', 'this code is not valid; check it for typing errors');
  const now = ctx.clock.now();
  if (c.saleUntil && now >= c.saleUntil) throw err('CODE_EXPIRED', 'this promo code has expired');
  if (c.saleFrom && now < c.saleFrom) throw err('CODE_NOT_APPLICABLE', 'this promo code is not valid yet');
  if (c.maxUses !== null && c.uses >= c.maxUses) throw err('CODE_EXHAUSTED', 'this promo code has been used up');
  if (c.channels.length && !c.channels.includes(channelOf(ctx))) throw err('CODE_NOT_APPLICABLE', `this promo code is not valid for sales through ${channelOf(ctx)}`);
  const eligible = items.filter((i) => applies(c, i));
  const quantity = eligible.reduce((s, i) => s + i.quantity, 0);
  if (eligible.length === 0 || quantity < c.minQuantity) {
    throw err('CODE_NOT_APPLICABLE', c.minQuantity > 1 ? `this promo code needs at least ${c.minQuantity} matching items` : 'this promo code applies to none of these items');
  }
  const base = eligible.reduce((s, i) => s + i.priceCents, 0);
  let discount = c.kind === 'percent' ? Math.floor((base * c.percent!) / 100) : Math.min(c.amountCents!, base);
  if (c.capCents !== null) discount = Math.min(discount, c.capCents);
  return { code: c, eligible, discount };
}

/**
 * Lowers item prices by each code's discount, spread over the items it applies to in proportion
 * to their prices (the rest of the rounding on the last one). A refused code throws before any
 * price changed: the caller has written nothing yet.
 */
export async function discountItems(ctx: Ctx, codes: string[], items: PreparedItem[]): Promise<AppliedCode[]> {
  if (new Set(codes.map(normalizePromo)).size !== codes.length) throw err('CODE_INVALID', 'a code is named more than once');
  const plans = [];
  for (const typed of codes) plans.push(await evaluate(ctx, typed, items));
  const out: AppliedCode[] = [];
  for (const p of plans) {
    const base = p.eligible.reduce((s, i) => s + i.priceCents, 0);
    const discount = Math.min(p.discount, base);
    let left = discount;
    p.eligible.forEach((i, n) => {
      const part = n === p.eligible.length - 1 ? left : Math.floor((discount * i.priceCents) / Math.max(base, 1));
      i.priceCents -= part;
      left -= part;
    });
    out.push({ code: p.code, discountCents: discount });
  }
  return out;
}

/** Takes one use of each applied code for the order, in its transaction; refuses past the limits. */
export async function recordUses(tx: Tx, ctx: Ctx, orderId: number, applied: AppliedCode[], email: string | null): Promise<void> {
  const now = ctx.clock.now();
  for (const a of applied) {
    // The guarded update also locks the code's row: per-e-mail counts below are read after any
    // concurrent order with this code committed or rolled back.
    const taken = ctx.testing?.unguardedPromoUses ? await unguardedTake(tx, a.code.id) : await takeUse(tx, a.code.id, now);
    if (!taken) throw err('CODE_EXHAUSTED', 'this promo code has been used up');
    if (a.code.maxUsesPerEmail !== null) {
      if (!email) throw err('CODE_NOT_APPLICABLE', 'this promo code needs the customer’s e-mail address');
      if ((await usesByEmail(tx, a.code.id, email)) >= a.code.maxUsesPerEmail) throw err('CODE_EXHAUSTED', 'this promo code has been used up for this e-mail address');
    }
    await insertUse(tx, { promoCodeId: a.code.id, orderId, email, discountCents: a.discountCents, createdAt: now });
  }
}

/** The race's control run: reads the count, then writes count + 1 with no guard (a lost update). */
async function unguardedTake(tx: Tx, id: number): Promise<PromoCodeRow | undefined> {
  const c = await promoCodeById(tx, id);
  if (!c || (c.maxUses !== null && c.uses >= c.maxUses)) return undefined;
  await new Promise((r) => setTimeout(r, 50));
  await setUsesUnguarded(tx, id, c.uses + 1);
  return c;
}
