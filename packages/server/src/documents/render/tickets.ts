// Print-at-home tickets: one A4 page per admission, with the museum, the ticket, its date and
// slot in the museum's zone, price and VAT, a CODE128 barcode and a QR code of the admission's
// barcode string, and the order it belongs to. Void admissions keep their page (a reprint shows
// what was cancelled) under a large diagonal VOID and a plain-text "not valid" line.
import { barcodePng, qrPng } from './codes.ts';
import { formatLocalDate, formatLocalTime, formatMoney, formatPct } from './format.ts';
import { A4, CONTENT_WIDTH, GRAY, MARGIN, RED, addPage, newDoc, rule, stamp, text, type Doc } from './pdf.ts';
import type { TicketAdmission, TicketsPdfInput } from './types.ts';

export async function renderTicketsPdf(input: TicketsPdfInput): Promise<Buffer> {
  if (input.admissions.length === 0) throw new Error('renderTicketsPdf: an order without admissions has no tickets');
  const codes = input.admissions.map((a) => ({ bar: barcodePng(a.barcode), qr: qrPng(a.barcode) }));
  const { doc, bytes } = newDoc({
    title: `Tickets, order ${input.order.id}`,
    subject: input.museum.title,
    author: input.museum.title,
    createdAt: input.order.created_at,
  });
  input.admissions.forEach((a, i) => ticketPage(doc, input, a, i, codes[i]!));
  doc.end();
  return bytes;
}

function ticketPage(doc: Doc, input: TicketsPdfInput, a: TicketAdmission, i: number, code: { bar: Buffer; qr: Buffer }) {
  const zone = input.museum.time_zone;
  addPage(doc);
  let y = text(doc, input.museum.title, MARGIN, MARGIN, { font: 'Helvetica-Bold', size: 20, lines: 2 });
  if (input.museum.location) y = text(doc, input.museum.location, MARGIN, y + 2, { size: 10, color: GRAY, lines: 2 });
  rule(doc, y + 10);
  y += 24;

  y = text(doc, a.title, MARGIN, y, { font: 'Helvetica-Bold', size: 24, lines: 2 });
  y = text(doc, a.ticket_type, MARGIN, y + 2, { size: 12, color: GRAY });
  if (a.status === 'void') y = text(doc, 'VOID - this admission was cancelled and is not valid for entry', MARGIN, y + 8, { font: 'Helvetica-Bold', size: 12, color: RED });
  y += 16;

  const { time, offset } = formatLocalTime(a.start_at, zone);
  const rows: Array<[string, string]> = [
    ['Date', formatLocalDate(a.start_at, zone)],
    ['Time', a.day_ticket ? 'valid all day' : `${time} (${offset}, ${zone})`],
  ];
  if (a.attendee) rows.push(['Visitor', `${a.attendee.name} ${a.attendee.surname}`]);
  const taxNote = a.tax_included === false ? 'plus' : 'incl.';
  rows.push(['Price', `${formatMoney(a.price_cents, input.currency)} (${taxNote} ${formatPct(a.vat_pct)} VAT)`]);
  for (const [label, value] of rows) {
    text(doc, label, MARGIN, y, { size: 11, color: GRAY, width: 90 });
    y = text(doc, value, MARGIN + 90, y, { size: 13, font: 'Helvetica-Bold', width: CONTENT_WIDTH - 90 }) + 8;
  }

  // Codes: the 1D barcode left, the QR code right, the code in plain digits under the barcode.
  y += 16;
  doc.image(code.bar, MARGIN, y, { fit: [300, 90] });
  doc.image(code.qr, A4.width - MARGIN - 150, y, { fit: [150, 150] });
  text(doc, a.barcode, MARGIN, y + 96, { font: 'Courier', size: 16, width: 300, align: 'center' });
  y += 170;

  rule(doc, y);
  const order = input.order.reference ? `Order ${input.order.id} / ${input.order.reference}` : `Order ${input.order.id}`;
  y = text(doc, order, MARGIN, y + 10, { size: 10 });
  text(doc, `Admission ${i + 1} of ${input.admissions.length}`, MARGIN, y + 2, { size: 10, color: GRAY });
  text(doc, 'Please have this ticket ready, printed or on screen. Each code admits once.', MARGIN, A4.height - MARGIN - 12, { size: 8, color: GRAY });
  if (a.status === 'void') stamp(doc, 'VOID');
}
