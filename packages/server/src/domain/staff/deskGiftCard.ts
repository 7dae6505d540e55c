// A gift card sold at the box office: the cashier takes its price (cash or the card terminal)
// and the card is issued (vouchers/giftCards.ts), with the desk's own audit entry saying how it
// was paid, in one transaction. The sale of a card carries no VAT and is not an order, so it is
// not on an order's invoice; its own row puts the money into the cashier's cash closing. The code
// is in the answer once and nowhere else. The form's key makes a form sent twice (a reload, a
// second click) sell one card: the repeat answers with that card, without its code.
import { deskGiftCardSaleByKey, insertDeskGiftCardSale } from '../../db/repositories/cashClosings.ts';
import type { GiftCardRow } from '../../db/repositories/giftCards.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { DomainError, invalid } from '../errors.ts';
import { getGiftCard, issueGiftCard } from '../vouchers/giftCards.ts';
import type { StaffCtx } from './principal.ts';

export interface DeskGiftCardSale {
  /** The sale form's idempotency key. */
  key: string;
  amount_cents: number;
  method: string;
  /** Cash handed over, for the change (only with cash). */
  given_cents?: number;
  recipient?: string;
  language?: string;
}

export type DeskGiftCardResult = { card: GiftCardRow; code: string; changeCents: number; replayed: false } | { card: GiftCardRow; code: null; changeCents: 0; replayed: true };

export async function sellGiftCardAtDesk(ctx: StaffCtx, input: DeskGiftCardSale): Promise<DeskGiftCardResult> {
  const errors: string[] = [];
  if (!/^[A-Za-z0-9-]{16,64}$/.test(input.key)) errors.push('the form is incomplete; reload the page');
  if (input.method !== 'cash' && input.method !== 'card') errors.push('payment must be cash or card');
  let changeCents = 0;
  if (input.method === 'cash' && input.given_cents !== undefined) {
    if (input.given_cents < input.amount_cents) errors.push('the cash given is less than the cash due');
    else changeCents = input.given_cents - input.amount_cents;
  }
  if (errors.length) throw invalid('the gift card could not be sold', errors);
  const earlier = await deskGiftCardSaleByKey(ctx.db, input.key);
  if (earlier) return { card: (await getGiftCard(ctx, earlier.giftCardId)).card, code: null, changeCents: 0, replayed: true };
  return transaction(ctx.db, async (tx) => {
    const txCtx: StaffCtx = { ...ctx, db: tx, channel: 'desk' };
    const r = await issueGiftCard(txCtx, {
      amount_cents: input.amount_cents,
      ...(input.language ? { language: input.language } : {}),
      ...(input.recipient ? { recipient: input.recipient } : {}),
    });
    const sold = await insertDeskGiftCardSale(tx, {
      giftCardId: r.card.id, staffUserId: ctx.staff.id, method: input.method as 'cash' | 'card', amountCents: input.amount_cents, saleKey: input.key, createdAt: ctx.clock.now(),
    });
    // The same form sent at the same moment: this card is rolled back, the first one stands.
    if (!sold) throw new DomainError('IDEMPOTENCY_IN_FLIGHT', 'this gift card is being sold already');
    await recordAudit(txCtx, ctx.staff, {
      action: 'gift_card.sell', entityType: 'gift_card', entityId: r.card.id, museumId: null,
      after: { amount_cents: input.amount_cents, method: input.method, last4: r.card.codeLast4 },
    });
    return { card: r.card, code: r.code, changeCents, replayed: false as const };
  });
}
