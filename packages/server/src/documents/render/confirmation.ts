// Booking confirmation for tours and events (an order's bookings, or an accepted group request):
// who booked, and per booking what, when (museum-local, with the end time when known), language,
// participants, meeting point, price and named attendees. Cancelled bookings stay listed, marked
// CANCELLED, so a re-sent confirmation shows the change; when every booking is cancelled the
// page carries the diagonal CANCELLED stamp too. Flows onto further pages as needed.
import { formatLocalDateTime, formatLocalTime, formatMoney, formatPct } from './format.ts';
import { CONTENT_WIDTH, A4, GRAY, MARGIN, RED, addPage, newDoc, printable, rule, stamp, text, fontName } from './pdf.ts';
import type { ConfirmationBooking, ConfirmationPdfInput } from '../../domain/documents/renderTypes.ts';

const BOTTOM = A4.height - MARGIN - 20;

export async function renderConfirmationPdf(input: ConfirmationPdfInput): Promise<Buffer> {
  if (input.bookings.length === 0) throw new Error('renderConfirmationPdf: nothing booked to confirm');
  const { doc, bytes } = newDoc({
    title: `Booking confirmation, order ${input.order.id}`,
    subject: input.museum.title,
    author: input.museum.title,
    createdAt: input.order.created_at,
  });
  const allCancelled = input.bookings.every((b) => b.status === 'cancelled');
  addPage(doc);
  if (allCancelled) stamp(doc, 'CANCELLED');
  let y = text(doc, input.museum.title, MARGIN, MARGIN, { font: 'Helvetica-Bold', size: 18, lines: 2 });
  if (input.museum.location) y = text(doc, input.museum.location, MARGIN, y + 2, { size: 10, color: GRAY, lines: 2 });
  rule(doc, y + 8);
  y = text(doc, 'Booking confirmation', MARGIN, y + 20, { font: 'Helvetica-Bold', size: 20 });
  const order = input.order.reference ? `Order ${input.order.id} / ${input.order.reference}` : `Order ${input.order.id}`;
  y = text(doc, order, MARGIN, y + 4, { size: 11 });
  y = text(doc, `Booked on ${formatLocalDateTime(input.order.created_at, input.museum.time_zone)}`, MARGIN, y + 2, { size: 9, color: GRAY });

  const c = input.customer;
  if (c) {
    y = text(doc, 'Booked by', MARGIN, y + 14, { size: 9, color: GRAY });
    y = text(doc, `${c.name} ${c.surname}`, MARGIN, y + 1, { size: 11, font: 'Helvetica-Bold' });
    if (c.institution) y = text(doc, c.institution, MARGIN, y + 1, { size: 10 });
    if (c.email) y = text(doc, c.email, MARGIN, y + 1, { size: 10 });
  }
  const ct = input.contact;
  if (ct) {
    y = text(doc, 'Contact person', MARGIN, y + 10, { size: 9, color: GRAY });
    y = text(doc, [ct.name, ct.email, ct.phone].filter(Boolean).join(', '), MARGIN, y + 1, { size: 10 });
  }
  y += 20;

  let total = 0;
  for (const b of input.bookings) {
    const lines = bookingLines(b, input);
    // Measured, not estimated: a group's attendee list can run to several lines.
    doc.font(fontName('regular')).fontSize(10);
    const h = 32 + lines.reduce((s, [, v]) => s + Math.min(doc.heightOfString(printable(v), { width: CONTENT_WIDTH - 100 }), 12.5 * 12) + 4, 0);
    if (y + h > BOTTOM) {
      addPage(doc);
      if (allCancelled) stamp(doc, 'CANCELLED');
      y = MARGIN;
    }
    rule(doc, y);
    const label = `${b.kind === 'tour' ? 'Tour' : 'Event'}: ${b.title}`;
    text(doc, label, MARGIN, y + 8, { font: 'Helvetica-Bold', size: 13, width: CONTENT_WIDTH - 110 });
    if (b.status === 'cancelled') text(doc, 'CANCELLED', MARGIN + CONTENT_WIDTH - 110, y + 8, { font: 'Helvetica-Bold', size: 12, color: RED, width: 110, align: 'right' });
    else total += b.price_cents;
    y += 26;
    for (const [k, v] of lines) {
      text(doc, k, MARGIN, y, { size: 9, color: GRAY, width: 100 });
      y = text(doc, v, MARGIN + 100, y, { size: 10, width: CONTENT_WIDTH - 100, lines: 12 }) + 4;
    }
    y += 6;
  }
  if (y + 60 > BOTTOM) {
    addPage(doc);
    y = MARGIN;
  }
  rule(doc, y);
  text(doc, 'Total of the bookings not cancelled', MARGIN, y + 10, { size: 11, font: 'Helvetica-Bold', width: 300 });
  y = text(doc, formatMoney(total, input.currency), MARGIN + 300, y + 10, { size: 11, font: 'Helvetica-Bold', width: CONTENT_WIDTH - 300, align: 'right' });
  if (input.note) text(doc, input.note, MARGIN, y + 20, { size: 9, color: GRAY, lines: 4 });
  doc.end();
  return bytes;
}

function bookingLines(b: ConfirmationBooking, input: ConfirmationPdfInput): Array<[string, string]> {
  const zone = input.museum.time_zone;
  let when = formatLocalDateTime(b.start_at, zone);
  if (b.end_at) when = when.replace(/ \((UTC[^)]*)\)$/, ` - ${formatLocalTime(b.end_at, zone).time} ($1)`);
  const out: Array<[string, string]> = [['When', when]];
  if (b.language) out.push(['Language', b.language]);
  out.push(['Participants', String(b.quantity)]);
  if (b.meeting_point) out.push(['Meeting point', b.meeting_point]);
  out.push(['Price', `${formatMoney(b.price_cents, input.currency)} (${formatPct(b.vat_pct)} VAT)`]);
  if (b.attendees?.length) out.push(['Attendees', b.attendees.map((a) => `${a.name} ${a.surname}`).join(', ')]);
  return out;
}
