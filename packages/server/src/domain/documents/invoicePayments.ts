// What an invoice says about how it was paid: each payment received, a gift card named by the
// last four characters of its code. A gift card is a means of payment, not a discount: the VAT
// stays on the lines it paid for, and the e-invoice lists it as a payment means.
import { giftCardById, redemptionOfPayment } from '../../db/repositories/giftCards.ts';
import { paymentsOfOrder } from '../../db/repositories/payments.ts';
import type { DbOrTx } from '../../db/client.ts';
import { received } from '../payments/status.ts';
import type { IssuedPayment } from './invoiceTypes.ts';

export async function paymentsOfInvoice(db: DbOrTx, orderId: number): Promise<IssuedPayment[]> {
  const out: IssuedPayment[] = [];
  for (const p of await paymentsOfOrder(db, orderId)) {
    if (!received(p)) continue;
    let last4: string | null = null;
    if (p.provider === 'gift_card') {
      const r = await redemptionOfPayment(db, p.id);
      last4 = r ? ((await giftCardById(db, r.giftCardId))?.codeLast4 ?? null) : null;
    }
    out.push({ provider: p.provider, amount_cents: p.amountCents, card_last4: last4 });
  }
  return out;
}
