// Print-at-home tickets: one A4 page per admission, readable at the door in the visitor's
// language: museum name and address, ticket title, what kind of admission, the visit date and
// slot as people write them ("Sa., 12. Dez. 2026, 10:30–11:00"), the visitor's name, price with
// VAT, entry notes (proof of eligibility for reduced tickets), a QR code about 8 cm wide (phone
// screens and gate cameras read it at arm's length) and a CODE128 barcode for hand scanners.
// Void admissions keep their page (a reprint shows what was cancelled) under a large diagonal
// CANCELLED stamp and a plain-text "not valid" line.
import { formatDate, formatMoney, formatPct, formatSlot, t, type MessageKey } from '../../i18n/index.ts';
import { barcodePng, qrPng } from './codes.ts';
import { A4, CONTENT_WIDTH, GRAY, MARGIN, RED, addPage, newDoc, rule, stamp, text, type Doc } from './pdf.ts';
import type { TicketAdmission, TicketsPdfInput } from '../../domain/documents/renderTypes.ts';

const QR_SIZE = 220; // points: 7.8 cm
const KIND: Record<TicketAdmission['kind'], MessageKey> = { time_slot: 'ticket.kind.time_slot', normal: 'ticket.kind.normal', event: 'ticket.kind.event' };

export async function renderTicketsPdf(input: TicketsPdfInput): Promise<Buffer> {
  if (input.admissions.length === 0) throw new Error('renderTicketsPdf: an order without admissions has no tickets');
  const { doc, bytes } = newDoc({
    title: `${input.museum.title}: ${t(input.locale, 'doc.order', { id: input.order.id })}`,
    subject: input.museum.title,
    author: input.museum.title,
    createdAt: input.order.created_at,
  });
  input.admissions.forEach((a, i) => ticketPage(doc, input, a, i));
  doc.end();
  return bytes;
}

function ticketPage(doc: Doc, input: TicketsPdfInput, a: TicketAdmission, i: number) {
  const L = input.locale;
  const zone = input.museum.time_zone;
  addPage(doc);
  let y = text(doc, input.museum.title, MARGIN, MARGIN, { font: 'Helvetica-Bold', size: 18, lines: 2 });
  if (input.museum.location) y = text(doc, input.museum.location, MARGIN, y + 2, { size: 10, color: GRAY, lines: 2 });
  rule(doc, y + 10);
  y += 22;

  y = text(doc, a.title, MARGIN, y, { font: 'Helvetica-Bold', size: 24, lines: 2 });
  y = text(doc, t(L, KIND[a.kind]), MARGIN, y + 2, { size: 12, color: GRAY });
  if (a.status === 'void') y = text(doc, t(L, 'ticket.void'), MARGIN, y + 8, { font: 'Helvetica-Bold', size: 12, color: RED, lines: 2 });
  y += 14;

  // The when, as one line a person reads: date and slot; a day ticket shows its date only.
  const when = a.day_ticket ? `${formatDate(L, a.start_at, zone, 'long')} (${t(L, 'ticket.all_day')})` : formatSlot(L, a.start_at, a.end_at, zone, 'medium');
  y = text(doc, when, MARGIN, y, { font: 'Helvetica-Bold', size: 16, lines: 2 }) + 10;

  const rows: Array<[string, string]> = [];
  if (a.attendee) rows.push([t(L, 'ticket.visitor'), `${a.attendee.name} ${a.attendee.surname}`]);
  const price = formatMoney(L, a.price_cents, input.currency);
  const rate = formatPct(L, a.vat_pct);
  rows.push([t(L, 'ticket.price'), t(L, a.tax_included === false ? 'ticket.price_plus_vat' : 'ticket.price_incl_vat', { price, rate })]);
  for (const [label, value] of rows) {
    text(doc, label, MARGIN, y + 2, { size: 10, color: GRAY, width: 100 });
    y = text(doc, value, MARGIN + 100, y, { size: 13, font: 'Helvetica-Bold', width: CONTENT_WIDTH - 100, lines: 3 }) + 6;
  }

  // Codes: the QR code large and centred, the 1D barcode under it with the digits.
  y += 10;
  doc.image(qrPng(a.barcode), (A4.width - QR_SIZE) / 2, y, { fit: [QR_SIZE, QR_SIZE] });
  y += QR_SIZE + 8;
  doc.image(barcodePng(a.barcode), (A4.width - 300) / 2, y, { fit: [300, 70] });
  y = text(doc, a.barcode, MARGIN, y + 74, { font: 'Courier', size: 14, align: 'center', width: CONTENT_WIDTH }) + 12;

  rule(doc, y);
  const notes = [a.reduced ? t(L, 'ticket.note.reduced') : null, a.kind === 'time_slot' ? t(L, 'ticket.note.slot') : null, t(L, 'ticket.note.general')];
  y += 8;
  for (const n of notes) if (n) y = text(doc, n, MARGIN, y, { size: 10, font: n === notes[0] && a.reduced ? 'Helvetica-Bold' : 'Helvetica', lines: 2, width: CONTENT_WIDTH }) + 3;

  const order = input.order.reference ? t(L, 'doc.order_ref', { id: input.order.id, reference: input.order.reference }) : t(L, 'doc.order', { id: input.order.id });
  const foot = A4.height - MARGIN - 12;
  text(doc, order, MARGIN, foot, { size: 9, color: GRAY, width: CONTENT_WIDTH / 2 });
  text(doc, t(L, 'ticket.admission_of', { n: i + 1, total: input.admissions.length }), MARGIN + CONTENT_WIDTH / 2, foot, { size: 9, color: GRAY, width: CONTENT_WIDTH / 2, align: 'right' });
  if (a.status === 'void') stamp(doc, t(L, 'ticket.void_stamp'));
}
