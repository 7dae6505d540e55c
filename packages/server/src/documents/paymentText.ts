// How an invoice names a payment, in its language: the same words in the PDF and in the
// e-invoice's payment means (BT-82), so the two never disagree.
import { t } from '../i18n/index.ts';
import type { IssuedPayment } from '../domain/documents/invoiceTypes.ts';

export function paymentLabel(locale: string, p: IssuedPayment): string {
  if (p.provider === 'gift_card') return t(locale, 'invoice.payment.gift_card', { last4: p.card_last4 ?? '????' });
  if (p.provider === 'desk') return t(locale, 'invoice.payment.desk');
  if (p.provider === 'invoice') return t(locale, 'invoice.payment.invoice');
  return t(locale, 'invoice.payment.online');
}

/** UNTDID 4461: 10 cash (the desk), 1 not defined (a transfer without account, a gift card), 54 card online. */
export function paymentMeansCode(p: IssuedPayment): string {
  if (p.provider === 'desk') return '10';
  if (p.provider === 'stripe' || p.provider === 'mollie' || p.provider === 'demo') return '54';
  return '1';
}
