// A gift card sold at the box office: the cashier takes its price (cash or the card terminal)
// and the card is issued (vouchers/giftCards.ts), with the desk's own audit entry saying how it
// was paid, in one transaction. The sale of a card carries no VAT and is not an order, so it is
// not on an order's invoice; its own row puts the money into the cashier's cash closing. The code
// is in the answer once and nowhere else.
import { insertDeskGiftCardSale } from '../../db/repositories/cashClosings.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { invalid } from '../errors.ts';
import { issueGiftCard } from '../vouchers/giftCards.ts';
import type { StaffCtx } from './principal.ts';

export interface DeskGiftCardSale {
  amount_cents: number;
  method: string;
  /** Cash handed over, for the change (only with cash). */
  given_cents?: number;
  recipient?: string;
  language?: string;
}

export async function sellGiftCardAtDesk(ctx: StaffCtx, input: DeskGiftCardSale) {
  const errors: string[] = [];
  if (input.method !== 'cash' && input.method !== 'card') errors.push('payment must be cash or card');
  let changeCents = 0;
  if (input.method === 'cash' && input.given_cents !== undefined) {
    if (input.given_cents < input.amount_cents) errors.push('the cash given is less than the cash due');
    else changeCents = input.given_cents - input.amount_cents;
  }
  if (errors.length) throw invalid('the gift card could not be sold', errors);
  return transaction(ctx.db, async (tx) => {
    const txCtx: StaffCtx = { ...ctx, db: tx, channel: 'desk' };
    const r = await issueGiftCard(txCtx, {
      amount_cents: input.amount_cents,
      ...(input.language ? { language: input.language } : {}),
      ...(input.recipient ? { recipient: input.recipient } : {}),
    });
    await insertDeskGiftCardSale(tx, { giftCardId: r.card.id, staffUserId: ctx.staff.id, method: input.method as 'cash' | 'card', amountCents: input.amount_cents, createdAt: ctx.clock.now() });
    await recordAudit(txCtx, ctx.staff, {
      action: 'gift_card.sell', entityType: 'gift_card', entityId: r.card.id, museumId: null,
      after: { amount_cents: input.amount_cents, method: input.method, last4: r.card.codeLast4 },
    });
    return { ...r, changeCents };
  });
}
