// Invoice VAT arithmetic (rounding per line, half away from zero; see src/documents/render/vat.ts)
// and what the invoice and confirmation PDFs print.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import {
  computeInvoiceTotals,
  formatMoney,
  renderConfirmationPdf,
  renderInvoicePdf,
  type ConfirmationPdfInput,
  type InvoiceLineInput,
  type InvoicePdfInput,
} from '../../src/documents/render/index.ts';

/** Text of every page (pdfkit: Flate content streams, WinAnsi strings hex-encoded in TJ arrays). */
function pdfText(pdf: Buffer): { pages: number; text: string } {
  const s = pdf.toString('latin1');
  const pages = (s.match(/\/Type \/Page\n/g) ?? []).length;
  const texts: string[] = [];
  const re = /\n>>\nstream\n/g;
  for (let m; (m = re.exec(s)); ) {
    const head = s.slice(s.lastIndexOf(' obj\n', m.index), m.index);
    if (/\/Subtype \/Image/.test(head)) continue;
    const len = Number(/\/Length (\d+)/.exec(head)![1]);
    const body = zlib.inflateSync(pdf.subarray(m.index + m[0].length, m.index + m[0].length + len)).toString('latin1');
    for (const [, arr] of body.matchAll(/\[([^\]]*)\] TJ/g)) {
      texts.push([...arr!.matchAll(/<([0-9a-f]*)>/g)].map(([, h]) => Buffer.from(h!, 'hex').toString('latin1')).join(''));
    }
  }
  return { pages, text: texts.join('\n') };
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

const invoice: InvoicePdfInput = {
  invoice_number: 'RE-2026-00017',
  issued_at: new Date('2026-07-01T22:30:00Z'), // already 2 July in Berlin
  time_zone: 'Europe/Berlin',
  seller: { name: 'Städel Museum', address_lines: ['Schaumainkai 63', '60596 Frankfurt am Main'], vat_id: 'DE123456789' },
  buyer: { name: 'Goethe-Gymnasium', address_lines: ['Hauptstr. 1', '10115 Berlin'] },
  order: { id: 42, reference: null },
  currency: 'EUR',
  lines: [
    { title: 'Adult admission', quantity: 2, unit_price_cents: 1400, total_cents: 2800, vat_pct: 7, tax_included: true, detail: 'Monday, 6 July 2026, 11:00' },
    { title: 'Guided tour', quantity: 1, unit_price_cents: 9000, total_cents: 9000, vat_pct: 19, tax_included: true },
    { title: 'Catalogue', quantity: 1, unit_price_cents: 2990, total_cents: 2990, vat_pct: 7, tax_included: false },
  ],
};

test('the invoice prints parties, number, local date, lines, the VAT breakdown per rate and the total', async () => {
  const pdf = await renderInvoicePdf(invoice);
  const { pages, text } = pdfText(pdf);
  assert.equal(pages, 1);
  for (const s of ['INVOICE', 'No. RE-2026-00017', 'Date: Thursday, 2 July 2026', 'Order 42', 'Städel Museum', 'VAT ID: DE123456789', 'Goethe-Gymnasium', 'Guided tour']) {
    assert.ok(text.includes(s), `missing ${s}`);
  }
  // 7 %: 2800 incl. → 2617 + 183; 2990 excl. → + 209 = 3199. 19 %: 9000 incl. → 7563 + 1437.
  const t = computeInvoiceTotals(invoice.lines);
  assert.deepEqual(t.by_rate.map((b) => [b.vat_pct, b.net_cents, b.vat_cents, b.gross_cents]), [[7, 5607, 392, 5999], [19, 7563, 1437, 9000]]);
  // Breakdown rows print label, net, VAT, gross in that order.
  assert.ok(text.includes('VAT 7%\n56.07 EUR\n3.92 EUR\n59.99 EUR'));
  assert.ok(text.includes('VAT 19%\n75.63 EUR\n14.37 EUR\n90.00 EUR'));
  assert.ok(text.includes('Total\n131.70 EUR\n18.29 EUR\n149.99 EUR'));
  assert.ok(text.includes('Amount due\n149.99 EUR'));
  // The tax-excluded catalogue line: net 29.90, gross 31.99.
  assert.ok(text.includes('Catalogue\n1\n29.90 EUR\n7%\n29.90 EUR\n31.99 EUR'));
  assert.ok((await renderInvoicePdf(structuredClone(invoice))).equals(pdf), 'deterministic');
});

test('a long invoice continues on further pages and still ends with the totals', async () => {
  const lines = Array.from({ length: 80 }, (_, i) => ({ ...invoice.lines[0]!, title: `Line ${i + 1}` }));
  const { pages, text } = pdfText(await renderInvoicePdf({ ...invoice, lines }));
  assert.ok(pages >= 3, `got ${pages} pages`);
  assert.ok(text.includes('Line 80'));
  // Column headings repeat on every page that has lines (the totals may sit alone on the last).
  const headings = text.match(/^Description$/gm)?.length ?? 0;
  assert.ok(headings === pages || headings === pages - 1, `${headings} headings on ${pages} pages`);
  assert.ok(text.includes(`Amount due\n${formatMoney(80 * 2800, 'EUR')}`));
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

test('the confirmation lists tours and events in museum time, marks cancelled ones and totals the rest', async () => {
  const { pages, text } = pdfText(await renderConfirmationPdf(confirmation));
  assert.equal(pages, 1);
  for (const s of ['Booking confirmation', 'Order 43 / G-9', 'Jonas Weber', 'Goethe-Gymnasium', 'Frau Kim, +49 69 123', 'Tour: Highlights', 'English', 'Main hall', 'Event: Evening lecture']) {
    assert.ok(text.includes(s), `missing ${s}`);
  }
  // 25 October 2026 is the end of summer time: 09:00Z is 10:00 at +01:00.
  assert.ok(text.includes('Sunday, 25 October 2026, 10:00 - 11:00 (UTC+01:00)'));
  assert.equal(text.match(/^CANCELLED$/gm)?.length, 1, 'only the cancelled booking, no page stamp');
  assert.ok(text.includes('Total of the bookings not cancelled\n90.00 EUR'));
  assert.ok(!text.includes('114.00 EUR'), 'the cancelled lecture is not in the total');

  const all = await renderConfirmationPdf({ ...confirmation, bookings: confirmation.bookings.map((b) => ({ ...b, status: 'cancelled' as const })) });
  assert.equal(pdfText(all).text.match(/^CANCELLED$/gm)?.length, 3, 'two bookings and the page stamp');
  await assert.rejects(renderConfirmationPdf({ ...confirmation, bookings: [] }), /nothing booked/);
});
