// A gift card pays (provider `gift_card`) part or all of what an order still owes: in one
// transaction the order's payments are locked (as recordPayment does), the card is debited by one
// conditional update that the database refuses below zero or after the card's end, a confirmed
// payment is written, the ledger row names it, and the order is settled. A second payment (the
// desk, Stripe) pays the rest. A refund of such a payment goes back onto the card
// (payments/giftCardRefund.ts).
import { randomUUID } from 'node:crypto';
import { giftCardByHash, giftCardById, insertLedger, moveBalance, setBalanceUnguarded } from '../../db/repositories/giftCards.ts';
import { codeLinesOfOrder } from '../../db/repositories/orderCodeLines.ts';
import { insertPayment, paymentsOfOrder, type PaymentRow } from '../../db/repositories/payments.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { findOrder } from '../orders/internal.ts';
import { auditPayment, callerOf } from '../payments/internal.ts';
import { settleOrder } from '../payments/settle.ts';
import { amountDue, assertPayable } from '../payments/startPayment.ts';
import { codeHash, normalizeCode } from './code.ts';

export const codeInvalid = () => new DomainError('CODE_INVALID', 'this code is not valid; check it for typing errors');
export const codeExhausted = () => new DomainError('CODE_EXHAUSTED', 'this gift card has no balance left');
export const codeExpired = () => new DomainError('CODE_EXPIRED', 'this gift card has expired');

/** The card of a typed code: refused before any query when the check characters fail. */
export async function cardOfCode(db: Ctx['db'] | Parameters<typeof giftCardByHash>[0], typed: string) {
  const code = normalizeCode(typed);
  if (!code) throw codeInvalid();
  const card = await giftCardByHash(db, codeHash(code));
  if (!card) throw codeInvalid();
  return card;
}

export interface GiftCardPaymentInput {
  code: string;
  /** At most what is due; by default what is due, or the whole balance when it is less. */
  amount_cents?: number;
}

export async function payWithGiftCard(ctx: Ctx, idOrToken: string, input: GiftCardPaymentInput): Promise<PaymentRow> {
  const code = normalizeCode(input.code);
  if (!code) throw codeInvalid();
  const createdBy = callerOf(ctx);
  return transaction(ctx.db, async (tx) => {
    const card = await giftCardByHash(tx, codeHash(code));
    if (!card) throw codeInvalid();
    const order = await findOrder(tx, ctx, idOrToken);
    // A card paying for cards only moves a balance onto a new code, hiding where the money came
    // from: refused whoever asks (shop, API, desk).
    if ((await codeLinesOfOrder(tx, order.id)).some((l) => l.type === 'GiftCard')) {
      throw new DomainError('GIFT_CARD_PAYS_GIFT_CARD', 'a gift card cannot pay for gift cards');
    }
    await paymentsOfOrder(tx, order.id, true);
    assertPayable(ctx, order);
    const due = await amountDue(tx, order);
    if (due <= 0) throw new DomainError('PAYMENT_NOT_DUE', 'nothing is left to pay on this order');
    if (input.amount_cents !== undefined && input.amount_cents > due) throw new DomainError('PAYMENT_NOT_DUE', `only ${due} cents are left to pay on this order`);
    const now = ctx.clock.now();
    if (card.currency !== order.currency) throw new DomainError('CODE_NOT_APPLICABLE', `this gift card is in ${card.currency}, the order in ${order.currency}`);
    if (card.expiresAt <= now) throw codeExpired();
    // What to take is decided on the balance read here; the debit below is the guard that holds
    // when another process took money in between (it refuses, and the caller may try again).
    const amount = input.amount_cents ?? Math.min(due, card.balanceCents);
    if (amount <= 0) throw codeExhausted();
    const debited = ctx.testing?.disableGiftCardGuard
      ? (card.balanceCents >= amount ? await setBalanceUnguarded(tx, card.id, card.balanceCents - amount, now) : undefined)
      : await moveBalance(tx, card.id, -amount, now);
    if (!debited) {
      const fresh = (await giftCardById(tx, card.id))!;
      if (fresh.expiresAt <= now) throw codeExpired();
      throw new DomainError('CODE_EXHAUSTED', `this gift card holds ${fresh.balanceCents} cents, less than the ${amount} asked for`);
    }
    const payment = await insertPayment(tx, {
      orderId: order.id, provider: 'gift_card', amountCents: amount, currency: order.currency, state: 'confirmed',
      providerRef: `gc_${card.id}_${randomUUID()}`, method: `card …${card.codeLast4}`, createdBy, createdAt: now, updatedAt: now, confirmedAt: now,
    });
    await insertLedger(tx, {
      giftCardId: card.id, kind: 'redeemed', amountCents: -amount, balanceAfterCents: debited.balanceCents, paymentId: payment.id, actor: createdBy, createdAt: now,
    });
    await auditPayment({ db: tx, clock: ctx.clock }, createdBy, 'payment.confirmed', payment, null, { state: 'confirmed', amount_cents: amount, provider: 'gift_card' });
    const settled = await settleOrder(ctx, tx, payment);
    if (settled.outcome === 'unsellable') throw new DomainError('PAYMENT_NOT_DUE', settled.reason);
    return payment;
  });
}

/** Public: balance and end only, for a code typed on the shop's page. */
export async function giftCardBalance(ctx: Ctx, typed: string): Promise<{ balance_cents: number; currency: string; expires_at: Date; expired: boolean }> {
  const card = await cardOfCode(ctx.db, typed);
  const expired = card.expiresAt <= ctx.clock.now();
  return { balance_cents: expired ? 0 : card.balanceCents, currency: card.currency, expires_at: card.expiresAt, expired };
}
