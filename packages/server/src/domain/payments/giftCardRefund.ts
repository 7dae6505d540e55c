// The refund of a gift-card payment: the money goes back onto the card it was taken from, once
// per refund (the ledger's refund_id is unique, so a retried refund credits nothing twice), even
// when the card has passed its end since (the refund then shows in its ledger, and the card's
// expiry entry takes it off again). It answers like a provider, so executeRefund treats it as one.
import { giftCardById, insertLedger, ledgerOfRefund, moveBalance, redemptionOfPayment } from '../../db/repositories/giftCards.ts';
import type { PaymentRow, RefundRow } from '../../db/repositories/payments.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import type { Ctx } from '../context.ts';
import type { ProviderRefund } from './provider.ts';

export async function refundToCard(ctx: Ctx, payment: PaymentRow, refund: RefundRow): Promise<ProviderRefund> {
  return transaction(ctx.db, async (tx) => {
    if (await ledgerOfRefund(tx, refund.id)) return { state: 'done' as const, providerRef: `gc_refund_${refund.id}` };
    const redemption = await redemptionOfPayment(tx, payment.id);
    if (!redemption) return { state: 'failed' as const, failure: 'no gift card redemption behind this payment' };
    await giftCardById(tx, redemption.giftCardId, true);
    const now = ctx.clock.now();
    const card = (await moveBalance(tx, redemption.giftCardId, refund.amountCents, now, true))!;
    await insertLedger(tx, {
      giftCardId: card.id, kind: 'refunded', amountCents: refund.amountCents, balanceAfterCents: card.balanceCents,
      paymentId: payment.id, refundId: refund.id, reason: refund.reason, actor: refund.createdBy, createdAt: now,
    });
    await recordAudit({ db: tx, clock: ctx.clock }, { system: refund.createdBy }, {
      action: 'gift_card.refunded', entityType: 'gift_card', entityId: card.id, before: null, after: { amount_cents: refund.amountCents, refund_id: refund.id },
    });
    return { state: 'done' as const, providerRef: `gc_refund_${refund.id}` };
  });
}
