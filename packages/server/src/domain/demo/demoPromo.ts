// The demo's promo code (docs/vouchers.md): WINTER10, ten percent off tickets, events and tours in
// the shop and at the box office, so both code fields can be tried out of the box. Inserted once:
// a code that exists already (the admin's changes included) is left alone.
import { insertPromoCode } from '../../db/repositories/promoCodes.ts';
import type { Ctx } from '../context.ts';

export const DEMO_PROMO_CODE = 'WINTER10';

export async function seedDemoPromo(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<void> {
  const now = ctx.clock.now();
  await insertPromoCode(ctx.db, {
    code: DEMO_PROMO_CODE, kind: 'percent', percent: 10, capCents: null, amountCents: null, buyQuantity: null, getQuantity: null,
    companionTicketId: null, ticketIds: [], eventIds: [], tourIds: [], channels: ['shop', 'desk'],
    saleFrom: null, saleUntil: null, visitFrom: null, visitUntil: null, minQuantity: 1, maxUses: null, maxUsesPerEmail: null,
    partnerAccountId: null, active: true, createdBy: 'demo', createdAt: now, updatedAt: now,
  });
}
