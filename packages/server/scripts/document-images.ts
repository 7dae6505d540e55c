// Renders the first pages of a German ticket, invoice and credit note as PNGs into docs/images/
// (pdftoppm from poppler-utils), so people can see what visitors and bookkeepers get:
//   node --import tsx scripts/document-images.ts
// Same renderers and inputs the service uses (the demo issuer, a demo-like order).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IssuedInvoice } from '../src/domain/documents/invoiceTypes.ts';
import { renderInvoicePdf } from '../src/documents/render/invoice.ts';
import { renderTicketsPdf } from '../src/documents/render/tickets.ts';
import { DEMO_ISSUER } from '../src/domain/documents/issuer.ts';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/images');
const start = new Date('2026-12-12T09:30:00Z');
const slot = 'Sa., 12. Dez. 2026, 10:30–11:00';
const invoice: IssuedInvoice = {
  kind: 'invoice', number: 'INV-000042', issued_at: '2026-11-23T14:05:00.000Z', locale: 'de', time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: DEMO_ISSUER,
  buyer: { name: 'Erika Mustermann', institution: null, street: 'Hauptstraße 5', zip: '10115', city: 'Berlin', country: 'DE', email: 'erika@example.com' },
  order: { id: 1042, reference: null },
  service: { from: '2026-12-12', to: '2026-12-12' },
  lines: [
    { title: 'Erwachsene', detail: slot, quantity: 2, unit_price_cents: 1400, total_cents: 2800, vat_pct: 7, tax_included: true, service_date: '2026-12-12' },
    { title: 'Ermäßigt', detail: slot, quantity: 1, unit_price_cents: 900, total_cents: 900, vat_pct: 7, tax_included: true, service_date: '2026-12-12' },
    { title: 'Audioguide', detail: slot, quantity: 1, unit_price_cents: 400, total_cents: 400, vat_pct: 19, tax_included: true, service_date: '2026-12-12' },
  ],
  refers_to: null, small_amount: false,
};
const credit: IssuedInvoice = { ...invoice, kind: 'credit_note', number: 'INV-000043', issued_at: '2026-11-25T09:12:00.000Z', lines: [invoice.lines[1]!], refers_to: { number: invoice.number, issued_at: invoice.issued_at } };
const tickets = await renderTicketsPdf({
  locale: 'de',
  order: { id: 1042, reference: null, token: 'demo', created_at: new Date(invoice.issued_at) },
  museum: { title: 'Atrium Demo Museum', time_zone: 'Europe/Berlin', location: 'Museumsinsel 1, 10178 Berlin' },
  currency: 'EUR',
  admissions: [{ title: 'Ermäßigt', start_at: start, end_at: new Date(start.getTime() + 30 * 60_000), kind: 'time_slot', reduced: true, price_cents: 900, vat_pct: 7, barcode: '403421029763-5', status: 'valid', attendee: { name: 'Jonas', surname: 'Mustermann' } }],
});

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-images-'));
for (const [name, pdf] of [['ticket-de', tickets], ['invoice-de', await renderInvoicePdf(invoice)], ['credit-note-de', await renderInvoicePdf(credit)]] as const) {
  const file = path.join(tmp, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', file, path.join(out, name)]);
  process.stdout.write(`docs/images/${name}.png\n`);
}
fs.rmSync(tmp, { recursive: true });
