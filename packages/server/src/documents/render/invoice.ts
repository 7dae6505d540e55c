// Invoice PDF: seller and buyer, invoice number and date, one row per line with net, VAT and
// gross (computed in vat.ts, rounding per line), the VAT breakdown per rate and the totals.
// Long invoices continue on further pages with the column headings repeated.
import { formatLocalDate, formatMoney, formatPct } from './format.ts';
import { A4, GRAY, MARGIN, addPage, newDoc, rule, text, type Doc } from './pdf.ts';
import type { InvoicePdfInput, InvoiceParty } from './types.ts';
import { computeInvoiceTotals } from './vat.ts';

// Columns: x and width; money columns are right-aligned.
const COLS = {
  title: { x: MARGIN, w: 170 },
  qty: { x: MARGIN + 170, w: 35 },
  unit: { x: MARGIN + 205, w: 75 },
  vat: { x: MARGIN + 280, w: 45 },
  net: { x: MARGIN + 325, w: 85 },
  gross: { x: MARGIN + 410, w: 85 },
} as const;
const BOTTOM = A4.height - MARGIN - 20;

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const totals = computeInvoiceTotals(input.lines);
  const money = (c: number) => formatMoney(c, input.currency);
  const { doc, bytes } = newDoc({
    title: `Invoice ${input.invoice_number}`,
    subject: 'Invoice',
    author: input.seller.name,
    createdAt: input.issued_at,
  });
  addPage(doc);
  const sellerEnd = party(doc, input.seller, MARGIN, MARGIN, 'Helvetica-Bold');
  text(doc, 'INVOICE', MARGIN + 300, MARGIN, { font: 'Helvetica-Bold', size: 22, width: 195, align: 'right' });
  let ry = text(doc, `No. ${input.invoice_number}`, MARGIN + 300, MARGIN + 30, { size: 11, width: 195, align: 'right' });
  ry = text(doc, `Date: ${formatLocalDate(input.issued_at, input.time_zone)}`, MARGIN + 300, ry + 2, { size: 10, width: 195, align: 'right' });
  if (input.order) {
    const ref = input.order.reference ? `Order ${input.order.id} / ${input.order.reference}` : `Order ${input.order.id}`;
    ry = text(doc, ref, MARGIN + 300, ry + 2, { size: 10, width: 195, align: 'right', color: GRAY });
  }
  let y = Math.max(sellerEnd, ry) + 24;
  if (input.buyer) {
    text(doc, 'Bill to', MARGIN, y, { size: 9, color: GRAY });
    y = party(doc, input.buyer, MARGIN, y + 12, 'Helvetica') + 24;
  }

  y = heading(doc, y);
  for (const l of totals.lines) {
    const h = l.detail ? 26 : 16;
    if (y + h > BOTTOM) {
      addPage(doc);
      y = heading(doc, MARGIN);
    }
    text(doc, l.title, COLS.title.x, y, { size: 9, width: COLS.title.w - 6 });
    text(doc, String(l.quantity), COLS.qty.x, y, { size: 9, width: COLS.qty.w, align: 'right' });
    text(doc, money(l.unit_price_cents), COLS.unit.x, y, { size: 9, width: COLS.unit.w, align: 'right' });
    text(doc, formatPct(l.vat_pct), COLS.vat.x, y, { size: 9, width: COLS.vat.w, align: 'right' });
    text(doc, money(l.net_cents), COLS.net.x, y, { size: 9, width: COLS.net.w, align: 'right' });
    text(doc, money(l.gross_cents), COLS.gross.x, y, { size: 9, width: COLS.gross.w, align: 'right' });
    if (l.detail) text(doc, l.detail, COLS.title.x, y + 11, { size: 8, color: GRAY, width: COLS.title.w + COLS.qty.w + COLS.unit.w });
    y += h;
  }
  rule(doc, y);
  y += 12;

  // VAT breakdown and totals: one row per rate, then the sums. Needs 16 pt a row plus the total.
  const need = 16 * (totals.by_rate.length + 3) + 40;
  if (y + need > BOTTOM) {
    addPage(doc);
    y = MARGIN;
  }
  const row = (label: string, net: string, vat: string, gross: string, bold = false) => {
    const font = bold ? 'Helvetica-Bold' : 'Helvetica';
    text(doc, label, COLS.qty.x - 60, y, { size: 9, font, width: COLS.vat.x - COLS.qty.x + 60 });
    text(doc, net, COLS.vat.x - 40, y, { size: 9, font, width: COLS.vat.w + 40, align: 'right' });
    text(doc, vat, COLS.net.x, y, { size: 9, font, width: COLS.net.w, align: 'right' });
    text(doc, gross, COLS.gross.x, y, { size: 9, font, width: COLS.gross.w, align: 'right' });
    y += 16;
  };
  row('VAT breakdown', 'Net', 'VAT', 'Gross', true);
  for (const b of totals.by_rate) row(`VAT ${formatPct(b.vat_pct)}`, money(b.net_cents), money(b.vat_cents), money(b.gross_cents));
  row('Total', money(totals.net_cents), money(totals.vat_cents), money(totals.gross_cents), true);
  y += 8;
  text(doc, 'Amount due', COLS.net.x - 100, y, { size: 12, font: 'Helvetica-Bold', width: 180 });
  y = text(doc, money(totals.gross_cents), COLS.gross.x - 20, y, { size: 12, font: 'Helvetica-Bold', width: COLS.gross.w + 20, align: 'right' });
  if (input.note) text(doc, input.note, MARGIN, y + 20, { size: 9, color: GRAY, lines: 4 });
  doc.end();
  return bytes;
}

function party(doc: Doc, p: InvoiceParty, x: number, y: number, font: 'Helvetica' | 'Helvetica-Bold'): number {
  y = text(doc, p.name, x, y, { font, size: 11, width: 260 });
  for (const line of p.address_lines) y = text(doc, line, x, y + 1, { size: 10, width: 260 });
  if (p.email) y = text(doc, p.email, x, y + 1, { size: 10, width: 260 });
  if (p.vat_id) y = text(doc, `VAT ID: ${p.vat_id}`, x, y + 1, { size: 10, width: 260 });
  return y;
}

function heading(doc: Doc, y: number): number {
  const o = { size: 9, font: 'Helvetica-Bold' as const };
  text(doc, 'Description', COLS.title.x, y, { ...o, width: COLS.title.w });
  text(doc, 'Qty', COLS.qty.x, y, { ...o, width: COLS.qty.w, align: 'right' });
  text(doc, 'Unit price', COLS.unit.x, y, { ...o, width: COLS.unit.w, align: 'right' });
  text(doc, 'VAT', COLS.vat.x, y, { ...o, width: COLS.vat.w, align: 'right' });
  text(doc, 'Net', COLS.net.x, y, { ...o, width: COLS.net.w, align: 'right' });
  text(doc, 'Gross', COLS.gross.x, y, { ...o, width: COLS.gross.w, align: 'right' });
  rule(doc, y + 13);
  return y + 20;
}
