// The gift card as a PDF, in its language: the museum, the value, the code (grouped by four, as
// typed) under its CODE128 barcode (what the desk's hand scanner reads), the end of validity and
// how to redeem it. Drawn with the tickets' helpers (pdf.ts, codes.ts).
import type { GiftCardPdfData } from '../../domain/vouchers/giftCardPdf.ts';
import { formatDate, formatMoney, t } from '../../i18n/index.ts';
import { barcodePng } from './codes.ts';
import { A4, CONTENT_WIDTH, GRAY, MARGIN, addPage, newDoc, rule, text } from './pdf.ts';

export type GiftCardPdfInput = Omit<GiftCardPdfData, 'last4'>;

export async function renderGiftCardPdf(g: GiftCardPdfInput): Promise<Buffer> {
  const L = g.locale;
  // A single-purpose voucher is drawn like a card, naming the admission it stands for.
  const voucher = g.admission !== undefined;
  const title = t(L, voucher ? 'voucher.title' : 'gift_card.title');
  const { doc, bytes } = newDoc({ title: `${title} ${g.museum}`, subject: title, author: g.museum, createdAt: new Date() });
  addPage(doc);
  const center = { width: CONTENT_WIDTH, align: 'center' as const };
  let y = text(doc, g.museum, MARGIN, MARGIN + 20, { ...center, size: 14, font: 'Helvetica-Bold', lines: 2 });
  y = text(doc, title, MARGIN, y + 20, { ...center, size: 28, font: 'Helvetica-Bold' });
  if (g.recipient) y = text(doc, t(L, 'gift_card.for', { name: g.recipient }), MARGIN, y + 10, { ...center, size: 14, lines: 2 });
  if (voucher) y = text(doc, t(L, 'voucher.admission', { ticket: g.admission ?? '' }), MARGIN, y + 10, { ...center, size: 14, lines: 2 });
  y = text(doc, t(L, 'gift_card.value'), MARGIN, y + 30, { ...center, size: 10, color: GRAY });
  y = text(doc, formatMoney(L, g.value_cents, g.currency), MARGIN, y + 4, { ...center, size: 32, font: 'Helvetica-Bold' });
  rule(doc, y + 24);
  doc.image(barcodePng(g.code), (A4.width - 320) / 2, y + 44, { fit: [320, 70] });
  y += 124;
  y = text(doc, t(L, 'gift_card.code'), MARGIN, y, { ...center, size: 10, color: GRAY });
  y = text(doc, g.code.replace(/(.{4})(?=.)/g, '$1-'), MARGIN, y + 4, { ...center, size: 18, font: 'Courier' });
  y = text(doc, t(L, 'gift_card.valid_until', { date: formatDate(L, g.expires_at, g.time_zone, 'long') }), MARGIN, y + 20, { ...center, size: 12 });
  text(doc, t(L, voucher ? 'voucher.how' : 'gift_card.how'), MARGIN, y + 30, { ...center, size: 9, color: GRAY, lines: 4 });
  doc.end();
  return bytes;
}
