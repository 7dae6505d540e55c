// Booking confirmation for tours and events (an order's bookings, or an accepted group request):
// who booked, and per booking what, when (museum-local, with the end time when known), language,
// participants, meeting point, price and named attendees. Cancelled bookings stay listed, marked
// CANCELLED, so a re-sent confirmation shows the change; when every booking is cancelled the
// page carries the diagonal CANCELLED stamp too. Flows onto further pages as needed.
// In the customer's language (input.locale: German or English; English when absent or other).
import { formatDateTime as i18nDateTime, formatMoney as i18nMoney, formatPct as i18nPct, formatSlot } from '../../i18n/index.ts';
import { formatLocalDateTime, formatLocalTime, formatMoney, formatPct } from './format.ts';
import { CONTENT_WIDTH, A4, GRAY, MARGIN, RED, addPage, newDoc, printable, rule, stamp, text, fontName } from './pdf.ts';
import type { ConfirmationBooking, ConfirmationPdfInput } from '../../domain/documents/renderTypes.ts';

const BOTTOM = A4.height - MARGIN - 20;

interface Words {
  title: string; order: string; bookedOn: string; bookedBy: string; contact: string; tour: string; event: string; cancelled: string;
  when: string; language: string; participants: string; meetingPoint: string; price: string; vat: string; attendees: string; total: string;
  money(cents: number, currency: string): string;
  pct(pct: number): string;
  dateTime(at: Date, zone: string): string;
  slot(start: Date, end: Date, zone: string): string;
}

const EN: Words = {
  title: 'Booking confirmation', order: 'Order', bookedOn: 'Booked on', bookedBy: 'Booked by', contact: 'Contact person', tour: 'Tour', event: 'Event',
  cancelled: 'CANCELLED', when: 'When', language: 'Language', participants: 'Participants', meetingPoint: 'Meeting point', price: 'Price', vat: 'VAT',
  attendees: 'Attendees', total: 'Total of the bookings not cancelled',
  money: formatMoney,
  pct: formatPct,
  dateTime: formatLocalDateTime,
  slot: (start, end, zone) => formatLocalDateTime(start, zone).replace(/ \((UTC[^)]*)\)$/, ` - ${formatLocalTime(end, zone).time} ($1)`),
};

const DE: Words = {
  title: 'Buchungsbestätigung', order: 'Bestellung', bookedOn: 'Gebucht am', bookedBy: 'Gebucht von', contact: 'Ansprechpartner/in', tour: 'Führung', event: 'Veranstaltung',
  cancelled: 'STORNIERT', when: 'Wann', language: 'Sprache', participants: 'Teilnehmende', meetingPoint: 'Treffpunkt', price: 'Preis', vat: 'USt.',
  attendees: 'Teilnehmende (Namen)', total: 'Summe der nicht stornierten Buchungen',
  money: (c, cur) => i18nMoney('de', c, cur),
  pct: (p) => i18nPct('de', p),
  dateTime: (at, zone) => i18nDateTime('de', at, zone, 'long'),
  slot: (start, end, zone) => formatSlot('de', start, end, zone, 'long'),
};

const wordsFor = (locale: string | undefined): Words => (locale?.toLowerCase().startsWith('de') ? DE : EN);

export async function renderConfirmationPdf(input: ConfirmationPdfInput): Promise<Buffer> {
  if (input.bookings.length === 0) throw new Error('renderConfirmationPdf: nothing booked to confirm');
  const W = wordsFor(input.locale);
  const { doc, bytes } = newDoc({
    title: `${W.title}, ${W.order} ${input.order.id}`,
    subject: input.museum.title,
    author: input.museum.title,
    createdAt: input.order.created_at,
  });
  const allCancelled = input.bookings.every((b) => b.status === 'cancelled');
  addPage(doc);
  if (allCancelled) stamp(doc, W.cancelled);
  let y = text(doc, input.museum.title, MARGIN, MARGIN, { font: 'Helvetica-Bold', size: 18, lines: 2 });
  if (input.museum.location) y = text(doc, input.museum.location, MARGIN, y + 2, { size: 10, color: GRAY, lines: 2 });
  rule(doc, y + 8);
  y = text(doc, W.title, MARGIN, y + 20, { font: 'Helvetica-Bold', size: 20 });
  const order = input.order.reference ? `${W.order} ${input.order.id} / ${input.order.reference}` : `${W.order} ${input.order.id}`;
  y = text(doc, order, MARGIN, y + 4, { size: 11 });
  y = text(doc, `${W.bookedOn} ${W.dateTime(input.order.created_at, input.museum.time_zone)}`, MARGIN, y + 2, { size: 9, color: GRAY });

  const c = input.customer;
  if (c) {
    y = text(doc, W.bookedBy, MARGIN, y + 14, { size: 9, color: GRAY });
    y = text(doc, `${c.name} ${c.surname}`, MARGIN, y + 1, { size: 11, font: 'Helvetica-Bold' });
    if (c.institution) y = text(doc, c.institution, MARGIN, y + 1, { size: 10 });
    if (c.email) y = text(doc, c.email, MARGIN, y + 1, { size: 10 });
  }
  const ct = input.contact;
  if (ct) {
    y = text(doc, W.contact, MARGIN, y + 10, { size: 9, color: GRAY });
    y = text(doc, [ct.name, ct.email, ct.phone].filter(Boolean).join(', '), MARGIN, y + 1, { size: 10 });
  }
  y += 20;

  let total = 0;
  for (const b of input.bookings) {
    const lines = bookingLines(b, input, W);
    // Measured, not estimated: a group's attendee list can run to several lines.
    doc.font(fontName('regular')).fontSize(10);
    const h = 32 + lines.reduce((s, [, v]) => s + Math.min(doc.heightOfString(printable(v), { width: CONTENT_WIDTH - 100 }), 12.5 * 12) + 4, 0);
    if (y + h > BOTTOM) {
      addPage(doc);
      if (allCancelled) stamp(doc, W.cancelled);
      y = MARGIN;
    }
    rule(doc, y);
    const label = `${b.kind === 'tour' ? W.tour : W.event}: ${b.title}`;
    text(doc, label, MARGIN, y + 8, { font: 'Helvetica-Bold', size: 13, width: CONTENT_WIDTH - 110 });
    if (b.status === 'cancelled') text(doc, W.cancelled, MARGIN + CONTENT_WIDTH - 110, y + 8, { font: 'Helvetica-Bold', size: 12, color: RED, width: 110, align: 'right' });
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
  text(doc, W.total, MARGIN, y + 10, { size: 11, font: 'Helvetica-Bold', width: 300 });
  y = text(doc, W.money(total, input.currency), MARGIN + 300, y + 10, { size: 11, font: 'Helvetica-Bold', width: CONTENT_WIDTH - 300, align: 'right' });
  if (input.note) text(doc, input.note, MARGIN, y + 20, { size: 9, color: GRAY, lines: 4 });
  doc.end();
  return bytes;
}

function bookingLines(b: ConfirmationBooking, input: ConfirmationPdfInput, W: Words): Array<[string, string]> {
  const zone = input.museum.time_zone;
  const when = b.end_at ? W.slot(b.start_at, b.end_at, zone) : W.dateTime(b.start_at, zone);
  const out: Array<[string, string]> = [[W.when, when]];
  if (b.language) out.push([W.language, b.language]);
  out.push([W.participants, String(b.quantity)]);
  if (b.meeting_point) out.push([W.meetingPoint, b.meeting_point]);
  out.push([W.price, `${W.money(b.price_cents, input.currency)} (${W.pct(b.vat_pct)} ${W.vat})`]);
  if (b.attendees?.length) out.push([W.attendees, b.attendees.map((a) => `${a.name} ${a.surname}`).join(', ')]);
  return out;
}
