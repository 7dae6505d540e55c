// Invoice and credit note PDFs under § 14 Abs. 4 UStG, in the invoice's locale, rendered from
// the issued (frozen) content only (domain/documents/invoiceTypes.ts): issuer name, address and VAT ID
// or tax number; recipient when known; number; issue date; date(s) of service; each line with
// quantity, unit price, VAT rate, net and gross (vat.ts rounds per line); net, VAT and gross per
// rate; totals. A credit note names the invoice it corrects. The small-amount form (§ 33 UStDV,
// gross ≤ 250 €) prints gross amounts with their rate. Long invoices continue on further pages,
// each headed with the number and the column headings.
import { formatDate, formatMoney, formatPct, t } from '../../i18n/index.ts';
import type { IssuedInvoice, IssuedParty } from '../../domain/documents/invoiceTypes.ts';
import type { Issuer } from '../../domain/documents/issuer.ts';
import { A4, GRAY, MARGIN, addPage, newDoc, rule, text, type Doc } from './pdf.ts';
import { paymentLabel } from '../paymentText.ts';
import { computeInvoiceTotals } from '../../domain/pricing/vat.ts';

const COLS = {
  title: { x: MARGIN, w: 175 },
  qty: { x: MARGIN + 175, w: 35 },
  unit: { x: MARGIN + 210, w: 70 },
  vat: { x: MARGIN + 280, w: 50 },
  net: { x: MARGIN + 330, w: 80 },
  gross: { x: MARGIN + 410, w: 85 },
} as const;
const BOTTOM = A4.height - MARGIN - 20;
const RIGHT = { x: MARGIN + 225, w: 270 } as const;

export async function renderInvoicePdf(inv: IssuedInvoice): Promise<Buffer> {
  const L = inv.locale;
  const totals = computeInvoiceTotals(inv.lines);
  const money = (c: number) => formatMoney(L, c, inv.currency);
  const date = (d: string) => formatDate(L, d.length === 10 ? d : new Date(d), inv.time_zone, 'short');
  const credit = inv.kind === 'credit_note';
  const title = t(L, credit ? 'credit_note.title' : inv.small_amount ? 'invoice.title_small' : 'invoice.title');
  const numberLine = t(L, credit ? 'credit_note.number' : 'invoice.number', { number: inv.number });
  const { doc, bytes } = newDoc({ title: `${title} ${inv.number}`, subject: title, author: inv.seller.name, createdAt: new Date(inv.issued_at) });

  addPage(doc);
  const sellerEnd = seller(doc, inv.seller, L);
  let ry = text(doc, title, RIGHT.x, MARGIN, { font: 'Helvetica-Bold', size: 16, width: RIGHT.w, align: 'right', lines: 2 });
  const right = [
    numberLine,
    t(L, 'invoice.issue_date', { date: date(inv.issued_at) }),
    inv.service.from === inv.service.to
      ? t(L, 'invoice.service_date', { date: date(inv.service.from) })
      : t(L, 'invoice.service_period', { from: date(inv.service.from), to: date(inv.service.to) }),
    inv.order.reference ? t(L, 'doc.order_ref', { id: inv.order.id, reference: inv.order.reference }) : t(L, 'doc.order', { id: inv.order.id }),
  ];
  if (inv.refers_to) right.push(t(L, 'credit_note.refers_to', { number: inv.refers_to.number, date: date(inv.refers_to.issued_at) }));
  right.forEach((line, i) => (ry = text(doc, line, RIGHT.x, ry + 2, { size: i === 0 ? 11 : 9, font: i === 0 ? 'Helvetica-Bold' : 'Helvetica', width: RIGHT.w, align: 'right', lines: 2 })));
  let y = Math.max(sellerEnd, ry) + 20;
  if (inv.buyer && !inv.small_amount) {
    text(doc, t(L, 'invoice.bill_to'), MARGIN, y, { size: 9, color: GRAY });
    y = buyer(doc, inv.buyer, y + 12) + 20;
  }

  const head = () => heading(doc, L, inv.small_amount);
  y = head()(y);
  for (const l of totals.lines) {
    const off = l.discounts ?? [];
    const h = (l.detail ? 24 : 14) + (off.length ? 11 * (off.length + 1) : 0);
    if (y + h > BOTTOM) {
      addPage(doc);
      text(doc, `${title} ${inv.number}`, MARGIN, MARGIN, { size: 9, color: GRAY });
      y = head()(MARGIN + 18);
    }
    text(doc, l.title, COLS.title.x, y, { size: 9, width: COLS.title.w - 6 });
    text(doc, String(l.quantity), COLS.qty.x, y, { size: 9, width: COLS.qty.w, align: 'right' });
    text(doc, money(l.unit_price_cents), COLS.unit.x, y, { size: 9, width: COLS.unit.w, align: 'right' });
    // A gift card's line is not subject to VAT: no rate, the words instead.
    text(doc, l.vat_category === 'O' ? '–' : formatPct(L, l.vat_pct), COLS.vat.x, y, { size: 9, width: COLS.vat.w, align: 'right' });
    if (!inv.small_amount) text(doc, money(l.net_cents), COLS.net.x, y, { size: 9, width: COLS.net.w, align: 'right' });
    text(doc, money(l.gross_cents), COLS.gross.x, y, { size: 9, width: COLS.gross.w, align: 'right' });
    if (l.detail) text(doc, l.detail, COLS.title.x + 8, y + 11, { size: 8, color: GRAY, width: COLS.vat.x - COLS.title.x - 8 });
    // The list price and each discount under the line, whose amounts above are after them.
    let dy = y + (l.detail ? 22 : 11);
    const sub = (label: string, cents: number) => {
      text(doc, label, COLS.title.x + 8, dy, { size: 8, color: GRAY, width: COLS.vat.x - COLS.title.x - 8 });
      text(doc, money(cents), COLS.gross.x, dy, { size: 8, color: GRAY, width: COLS.gross.w, align: 'right' });
      dy += 11;
    };
    if (off.length) sub(t(L, 'invoice.list_price'), l.total_cents + off.reduce((s, d) => s + d.amount_cents, 0));
    for (const d of off) sub(t(L, 'invoice.discount', { code: d.code }), -d.amount_cents);
    y += h;
  }
  rule(doc, y);
  y += 10;

  // Per rate and totals: one row per rate, the sums, the amount due or credited, the note.
  const need = 14 * (totals.by_rate.length + 5) + 60;
  if (y + need > BOTTOM) {
    addPage(doc);
    text(doc, `${title} ${inv.number}`, MARGIN, MARGIN, { size: 9, color: GRAY });
    y = MARGIN + 20;
  }
  const row = (label: string, net: string, vat: string, gross: string, bold = false) => {
    const font = bold ? 'Helvetica-Bold' : 'Helvetica';
    text(doc, label, MARGIN + 100, y, { size: 9, font, width: COLS.unit.x + COLS.unit.w - MARGIN - 100 });
    text(doc, net, COLS.vat.x - 30, y, { size: 9, font, width: COLS.vat.w + 30, align: 'right' });
    text(doc, vat, COLS.net.x, y, { size: 9, font, width: COLS.net.w, align: 'right' });
    text(doc, gross, COLS.gross.x, y, { size: 9, font, width: COLS.gross.w, align: 'right' });
    y += 14;
  };
  if (inv.small_amount) {
    for (const b of totals.by_rate) {
      const note = b.category === 'O' ? t(L, 'invoice.not_subject_note') : t(L, 'invoice.small_amount_note', { rate: formatPct(L, b.vat_pct) });
      y = text(doc, `${note} (${money(b.gross_cents)})`, MARGIN + 100, y, { size: 9, width: 395 }) + 4;
    }
  } else {
    row(t(L, 'invoice.vat_breakdown'), t(L, 'invoice.col.net'), t(L, 'invoice.col.vat_amount'), t(L, 'invoice.col.gross'), true);
    for (const b of totals.by_rate) {
      const label = b.category === 'O' ? t(L, 'invoice.not_subject_note') : t(L, 'invoice.vat_rate', { rate: formatPct(L, b.vat_pct) });
      row(label, money(b.net_cents), money(b.vat_cents), money(b.gross_cents));
    }
    row(t(L, 'invoice.total'), money(totals.net_cents), money(totals.vat_cents), money(totals.gross_cents), true);
    y += 4;
    for (const [k, v] of [['invoice.total_net', totals.net_cents], ['invoice.total_vat', totals.vat_cents]] as const) {
      text(doc, t(L, k), MARGIN + 200, y, { size: 10, width: 180 });
      y = text(doc, money(v), COLS.gross.x - 20, y, { size: 10, width: COLS.gross.w + 20, align: 'right' }) + 2;
    }
  }
  y += 4;
  text(doc, t(L, credit ? 'invoice.amount_credited' : 'invoice.amount_due'), MARGIN + 200, y, { size: 12, font: 'Helvetica-Bold', width: 180 });
  y = text(doc, money(totals.gross_cents), COLS.gross.x - 30, y, { size: 12, font: 'Helvetica-Bold', width: COLS.gross.w + 30, align: 'right' });
  const note = credit ? t(L, 'credit_note.note') : inv.due_date ? t(L, 'invoice.due_note', { date: date(inv.due_date), number: inv.number }) : t(L, 'invoice.paid_note');
  y = text(doc, note, MARGIN, y + 20, { size: 9, color: GRAY, lines: 3, width: 495 });
  // How it was paid: a gift card is a means of payment (its VAT is on the lines above).
  const paid = credit ? [] : (inv.payments ?? []);
  if (paid.length > 0) {
    if (y + 14 * (paid.length + 2) > BOTTOM) {
      addPage(doc);
      y = MARGIN;
    }
    y = text(doc, t(L, 'invoice.payments'), MARGIN + 200, y + 10, { size: 9, font: 'Helvetica-Bold', width: 180 });
    for (const p of paid) {
      text(doc, paymentLabel(L, p), MARGIN + 200, y + 2, { size: 9, width: 180 });
      y = text(doc, money(p.amount_cents), COLS.gross.x - 30, y + 2, { size: 9, width: COLS.gross.w + 30, align: 'right' });
    }
  }
  doc.end();
  return bytes;
}

function seller(doc: Doc, s: Issuer, L: string): number {
  let y = text(doc, s.name, MARGIN, MARGIN, { font: 'Helvetica-Bold', size: 11, width: 210, lines: 2 });
  for (const line of [s.street, `${s.zip} ${s.city}`, s.country]) y = text(doc, line, MARGIN, y + 1, { size: 9, width: 210 });
  if (s.vatId) y = text(doc, t(L, 'invoice.vat_id', { id: s.vatId }), MARGIN, y + 1, { size: 9, width: 210 });
  if (s.taxNumber) y = text(doc, t(L, 'invoice.tax_number', { id: s.taxNumber }), MARGIN, y + 1, { size: 9, width: 210 });
  if (s.email) y = text(doc, s.email, MARGIN, y + 1, { size: 9, width: 210 });
  return y;
}

function buyer(doc: Doc, b: IssuedParty, y: number): number {
  // The recipient's full name is mandatory: up to 12 lines (510 characters) before an ellipsis.
  y = text(doc, b.name, MARGIN, y, { size: 10, width: 300, lines: 12 });
  const place = [b.zip, b.city].filter(Boolean).join(' ');
  for (const line of [b.institution, b.street, place, b.country]) if (line) y = text(doc, line, MARGIN, y + 1, { size: 10, width: 300, lines: 2 });
  if (b.email) y = text(doc, b.email, MARGIN, y + 1, { size: 9, width: 300, color: GRAY });
  return y;
}

function heading(doc: Doc, L: string, small: boolean) {
  return (y: number): number => {
    const o = { size: 8, font: 'Helvetica-Bold' as const };
    text(doc, t(L, 'invoice.col.description'), COLS.title.x, y, { ...o, width: COLS.title.w });
    text(doc, t(L, 'invoice.col.qty'), COLS.qty.x, y, { ...o, width: COLS.qty.w, align: 'right' });
    text(doc, t(L, 'invoice.col.unit'), COLS.unit.x, y, { ...o, width: COLS.unit.w, align: 'right' });
    text(doc, t(L, 'invoice.col.vat'), COLS.vat.x, y, { ...o, width: COLS.vat.w, align: 'right' });
    if (!small) text(doc, t(L, 'invoice.col.net'), COLS.net.x, y, { ...o, width: COLS.net.w, align: 'right' });
    text(doc, t(L, 'invoice.col.gross'), COLS.gross.x, y, { ...o, width: COLS.gross.w, align: 'right' });
    rule(doc, y + 12);
    return y + 18;
  };
}
