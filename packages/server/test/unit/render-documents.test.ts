// Invoice VAT arithmetic (rounding per line, half away from zero; see src/domain/pricing/vat.ts)
// and what the invoice, credit note and confirmation PDFs print, read back with pdftotext: every
// field § 14 Abs. 4 UStG requires, in German and in English; the credit note's reference to its
// invoice; long invoices paged; hostile names (RTL, emoji, 500 characters) never break the PDF.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import {
  computeInvoiceTotals,
  formatMoney,
  renderConfirmationPdf,
  renderInvoicePdf,
  type ConfirmationPdfInput,
  type InvoiceLineInput,
} from '../../src/documents/render/index.ts';
import { hasPdfToText, PDFTOTEXT_MISSING, pdfPages, squash } from '../helpers/pdftext.ts';

/** Page count and the whole text (whitespace squashed) of a PDF. */
function pdfText(pdf: Buffer): { pages: number; text: string } {
  const ps = pdfPages(pdf)!;
  // pdftotext keeps or drops the narrow space in "7 %" depending on the column: both read alike.
  return { pages: ps.length, text: squash(ps.join('\n')).replace(/ %/g, '%') };
}

const line = (total_cents: number, vat_pct: number, tax_included: boolean): InvoiceLineInput => ({
  title: 'x', quantity: 1, unit_price_cents: total_cents, total_cents, vat_pct, tax_included,
});

test('VAT per line: 7 % and 19 %, tax included and excluded, rounded half away from zero', () => {
  const t = computeInvoiceTotals([
    line(1000, 7, true), // 1000 / 1.07 = 934.58 → net 935, VAT 65
    line(1000, 19, true), // 1000 / 1.19 = 840.34 → net 840, VAT 160
    line(1000, 19, false), // 1000 × 0.19 = 190 → gross 1190
    line(1050, 7, false), // 1050 × 0.07 = 73.5 → VAT 74 (half up), gross 1124
    line(107, 7, true), // exactly 100 + 7
  ]);
  assert.deepEqual(
    t.lines.map((l) => [l.net_cents, l.vat_cents, l.gross_cents]),
    [[935, 65, 1000], [840, 160, 1000], [1000, 190, 1190], [1050, 74, 1124], [100, 7, 107]],
  );
  assert.deepEqual(t.by_rate, [
    { vat_pct: 7, net_cents: 2085, vat_cents: 146, gross_cents: 2231 },
    { vat_pct: 19, net_cents: 1840, vat_cents: 350, gross_cents: 2190 },
  ]);
  assert.deepEqual([t.net_cents, t.vat_cents, t.gross_cents], [3925, 496, 4421]);
});

test('rounding is per line (sums of rounded lines), exact at .5, and negative lines mirror positive ones', () => {
  // Three lines of 0.05 at 7 % excluded: 0.35 ct VAT each → 0 per line (not 1 on the sum of 15).
  const t = computeInvoiceTotals([line(5, 7, false), line(5, 7, false), line(5, 7, false)]);
  assert.deepEqual([t.net_cents, t.vat_cents, t.gross_cents], [15, 0, 15]);
  // 50 × 19 % = 9.5 → 10; float arithmetic would give 9.499999… for some rates, integers do not.
  assert.equal(computeInvoiceTotals([line(50, 19, false)]).vat_cents, 10);
  assert.equal(computeInvoiceTotals([line(-50, 19, false)]).vat_cents, -10);
  assert.deepEqual(computeInvoiceTotals([line(-1000, 7, true)]).lines.map((l) => [l.net_cents, l.vat_cents]), [[-935, -65]]);
  // 5.5 % (a reduced rate elsewhere) is handled to 1/100 %: 1055 gross → 1000 net.
  assert.equal(computeInvoiceTotals([line(1055, 5.5, true)]).net_cents, 1000);
  // Every line and bucket balances.
  for (const l of computeInvoiceTotals([line(999, 19, true), line(1, 7, true), line(12345, 19, false)]).lines) {
    assert.equal(l.net_cents + l.vat_cents, l.gross_cents);
  }
  assert.throws(() => computeInvoiceTotals([line(10.5, 7, true)]), /integer cents/);
  assert.throws(() => computeInvoiceTotals([line(10, 120, true)]), /VAT rate/);
});

test('money is formatted from integer cents without floats', () => {
  assert.equal(formatMoney(0, 'EUR'), '0.00 EUR');
  assert.equal(formatMoney(5, 'EUR'), '0.05 EUR');
  assert.equal(formatMoney(123456789, 'CHF'), '1,234,567.89 CHF');
  assert.equal(formatMoney(-1050, 'EUR'), '-10.50 EUR');
});

const invoice: IssuedInvoice = {
  kind: 'invoice',
  number: 'INV-000017',
  issued_at: '2026-07-01T22:30:00.000Z', // already 2 July in Berlin
  locale: 'de',
  time_zone: 'Europe/Berlin',
  currency: 'EUR',
  seller: { name: 'Städel Museum', street: 'Schaumainkai 63', zip: '60596', city: 'Frankfurt am Main', country: 'DE', vatId: 'DE123456789', taxNumber: null, email: null },
  buyer: { name: 'Jonas Weber', institution: 'Goethe-Gymnasium', street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', email: null },
  order: { id: 42, reference: null },
  service: { from: '2026-07-06', to: '2026-07-06' },
  lines: [
    { title: 'Adult admission', detail: 'Mo., 6. Juli 2026, 11:00–11:30', quantity: 2, unit_price_cents: 1400, total_cents: 2800, vat_pct: 7, tax_included: true, service_date: '2026-07-06' },
    { title: 'Guided tour', detail: null, quantity: 1, unit_price_cents: 9000, total_cents: 9000, vat_pct: 19, tax_included: true, service_date: '2026-07-06' },
    { title: 'Catalogue', detail: null, quantity: 1, unit_price_cents: 2990, total_cents: 2990, vat_pct: 7, tax_included: false, service_date: '2026-07-06' },
  ],
  refers_to: null,
  small_amount: false,
};

// Every mandatory field of § 14 Abs. 4 UStG, as printed in each language, for the fixture above.
const MANDATORY = {
  de: [
    'Städel Museum', 'Schaumainkai 63', '60596 Frankfurt am Main', // issuer name and address
    'USt-IdNr.: DE123456789', // VAT ID
    'Jonas Weber', 'Goethe-Gymnasium', 'Hauptstr. 1', '10115 Berlin', // recipient
    'Rechnungsnummer INV-000017', 'Rechnungsdatum: 02.07.2026', 'Leistungsdatum: 06.07.2026',
    'Adult admission 2 14,00 € 7 % 26,17 € 28,00 €', // quantity, unit price, rate, net, gross
    'Catalogue 1 29,90 € 7 % 29,90 € 31,99 €',
    'USt 7 % 56,07 € 3,92 € 59,99 €', 'USt 19 % 75,63 € 14,37 € 90,00 €', // per rate: net, VAT, gross
    'Summe netto 131,70 €', 'Summe Umsatzsteuer 18,29 €', 'Rechnungsbetrag 149,99 €',
  ],
  en: [
    'Städel Museum', 'Schaumainkai 63', '60596 Frankfurt am Main',
    'VAT ID: DE123456789',
    'Jonas Weber', 'Goethe-Gymnasium', 'Hauptstr. 1', '10115 Berlin',
    'Invoice no. INV-000017', 'Issue date: 02/07/2026', 'Date of service: 06/07/2026',
    'Adult admission 2 €14.00 7% €26.17 €28.00',
    'Catalogue 1 €29.90 7% €29.90 €31.99',
    'VAT 7% €56.07 €3.92 €59.99', 'VAT 19% €75.63 €14.37 €90.00',
    'Total net €131.70', 'Total VAT €18.29', 'Amount due €149.99',
  ],
};

for (const locale of ['de', 'en'] as const) {
  test(`the ${locale} invoice prints every field § 14 UStG requires`, async (t) => {
    if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
    const pdf = await renderInvoicePdf({ ...invoice, locale });
    const { pages, text } = pdfText(pdf);
    assert.equal(pages, 1);
    for (const field of MANDATORY[locale]) assert.ok(text.includes(field.replace(/ %/g, '%')), `missing "${field}" in:\n${text}`);
    assert.ok((await renderInvoicePdf(structuredClone({ ...invoice, locale }))).equals(pdf), 'deterministic');
  });
}

test('the sums are those of the rounded lines', () => {
  // 7 %: 2800 incl. → 2617 + 183; 2990 excl. → + 209 = 3199. 19 %: 9000 incl. → 7563 + 1437.
  const t = computeInvoiceTotals(invoice.lines);
  assert.deepEqual(t.by_rate.map((b) => [b.vat_pct, b.net_cents, b.vat_cents, b.gross_cents]), [[7, 5607, 392, 5999], [19, 7563, 1437, 9000]]);
});

test('a credit note has its own number and names the invoice it corrects, in both languages', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const credit: IssuedInvoice = { ...invoice, kind: 'credit_note', number: 'INV-000018', issued_at: '2026-07-03T09:00:00.000Z', lines: invoice.lines.slice(0, 1), refers_to: { number: 'INV-000017', issued_at: invoice.issued_at } };
  const de = pdfText(await renderInvoicePdf(credit)).text;
  for (const s of ['Rechnungskorrektur', 'Nummer INV-000018', 'Zur Rechnung Nr. INV-000017 vom 02.07.2026', 'USt-IdNr.: DE123456789', 'Gutschriftsbetrag 28,00 €']) assert.ok(de.includes(s), `missing "${s}"`);
  const en = pdfText(await renderInvoicePdf({ ...credit, locale: 'en' })).text;
  for (const s of ['Credit note', 'Credit note no. INV-000018', 'Refers to invoice no. INV-000017 of 02/07/2026', 'Amount credited €28.00']) assert.ok(en.includes(s), `missing "${s}"`);
});

test('the small-amount form prints gross amounts with their rate', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const text = pdfText(await renderInvoicePdf({ ...invoice, small_amount: true, lines: invoice.lines.slice(0, 1) })).text;
  assert.ok(text.includes('Rechnung (Kleinbetrag)'));
  assert.ok(text.includes('Im Bruttobetrag sind 7% Umsatzsteuer enthalten. (28,00 €)'), text);
  assert.ok(text.includes('Rechnungsbetrag 28,00 €'));
  assert.ok(!text.includes('Goethe-Gymnasium'), 'no recipient needed');
});

test('a 200-line invoice continues on further pages, headed with its number, and ends with the totals', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const lines = Array.from({ length: 200 }, (_, i) => ({ ...invoice.lines[0]!, title: `Line ${i + 1}` }));
  const pdf = await renderInvoicePdf({ ...invoice, lines });
  const ps = pdfPages(pdf)!.map(squash);
  assert.ok(ps.length >= 6, `got ${ps.length} pages`);
  assert.ok(ps.join().includes('Line 200 '));
  for (const p of ps.slice(1)) assert.ok(p.includes('Rechnung INV-000017'), 'every further page names the invoice');
  assert.ok(ps.at(-1)!.includes(`Rechnungsbetrag ${squash('5.600,00 €')}`));
});

test('right-to-left names, emoji and 500-character names still make a readable PDF', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const long = 'Ä'.repeat(500);
  const buyer = { ...invoice.buyer!, name: `שרה כהן 😀 ${long}`, institution: 'مدرسة الفنون' };
  const pdf = await renderInvoicePdf({ ...invoice, buyer, lines: [{ ...invoice.lines[0]!, title: `🎟️ ${long}` }] });
  assert.match(pdf.subarray(0, 8).toString('latin1'), /^%PDF-1\.\d/);
  assert.match(pdf.subarray(-6).toString('latin1'), /%%EOF/);
  const { pages, text } = pdfText(pdf);
  assert.equal(pages, 1, 'long names are cut to their lines, not spilled over pages');
  assert.ok(/[\u05d0-\u05ea]{3}/.test(text), 'Hebrew letters are printed');
  assert.ok(/[\u0600-\u06ff]{3}/.test(text), 'Arabic letters are printed');
  assert.ok(text.includes('Rechnungsbetrag 28,00 €'));
});

const confirmation: ConfirmationPdfInput = {
  order: { id: 43, reference: 'G-9', token: 't', created_at: new Date('2026-07-01T08:00:00Z') },
  museum: { title: 'Städel Museum', time_zone: 'Europe/Berlin' },
  currency: 'EUR',
  customer: { name: 'Jonas', surname: 'Weber', institution: 'Goethe-Gymnasium', email: 'weber@school.example' },
  contact: { name: 'Frau Kim', phone: '+49 69 123' },
  bookings: [
    { kind: 'tour', title: 'Highlights', start_at: new Date('2026-10-25T09:00:00Z'), end_at: new Date('2026-10-25T10:00:00Z'), language: 'English', quantity: 25, price_cents: 9000, vat_pct: 19, status: 'booked', meeting_point: 'Main hall' },
    { kind: 'event', title: 'Evening lecture', start_at: new Date('2026-10-26T18:00:00Z'), quantity: 2, price_cents: 2400, vat_pct: 7, status: 'cancelled' },
  ],
};

test('the confirmation lists tours and events in museum time, marks cancelled ones and totals the rest', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const { pages, text } = pdfText(await renderConfirmationPdf(confirmation));
  assert.equal(pages, 1);
  for (const s of ['Booking confirmation', 'Order 43 / G-9', 'Jonas Weber', 'Goethe-Gymnasium', 'Frau Kim, +49 69 123', 'Tour: Highlights', 'English', 'Main hall', 'Event: Evening lecture']) {
    assert.ok(text.includes(s), `missing ${s}`);
  }
  // 25 October 2026 is the end of summer time: 09:00Z is 10:00 at +01:00.
  assert.ok(text.includes('Sunday, 25 October 2026, 10:00 - 11:00 (UTC+01:00)'));
  assert.equal(text.match(/CANCELLED/g)?.length, 1, 'only the cancelled booking, no page stamp');
  assert.ok(text.includes('Total of the bookings not cancelled 90.00 EUR'));
  assert.ok(!text.includes('114.00 EUR'), 'the cancelled lecture is not in the total');

  const all = await renderConfirmationPdf({ ...confirmation, bookings: confirmation.bookings.map((b) => ({ ...b, status: 'cancelled' as const })) });
  // Both bookings marked (the diagonal page stamp is rotated: pdftotext reads it letter by letter).
  assert.equal(pdfText(all).text.match(/CANCELLED/g)?.length, 2, 'both bookings marked');
  await assert.rejects(renderConfirmationPdf({ ...confirmation, bookings: [] }), /nothing booked/);
});
