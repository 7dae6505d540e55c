// The EN 16931 e-invoice (CII) of invoices and credit notes: the library's EN 16931 checks (its
// JSON schema: mandatory business terms, code lists, formats) accept what we produce and refuse
// broken data; the arithmetic business rules that matter here are checked on the XML itself
// (BR-CO-10 lines = line total, BR-CO-13/15 tax basis + VAT = grand total, BR-CO-14 VAT = sum of
// rates, BR-CO-16 due = grand total − prepaid, BR-S-08 basis per rate = its lines). The CII XSD
// and the rules over many generated invoices: einvoice-rules.test.ts (docs/adr/0025-e-invoice-validation-and-rtl-text.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eInvoiceData, renderEInvoiceXml, validateEInvoiceData } from '../../src/documents/einvoice/build.ts';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import { DEMO_ISSUER } from '../../src/domain/documents/issuer.ts';

const invoice: IssuedInvoice = {
  kind: 'invoice', number: 'INV-000017', issued_at: '2026-07-01T22:30:00.000Z', locale: 'de', time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: DEMO_ISSUER,
  buyer: { name: 'Jonas Weber', institution: 'Goethe-Gymnasium', street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', email: 'weber@example.com' },
  order: { id: 42, reference: null },
  service: { from: '2026-07-06', to: '2026-07-07' },
  lines: [
    { title: 'Erwachsene & Kinder <Gruppe>', detail: 'Mo., 6. Juli 2026, 11:00–11:30', quantity: 3, unit_price_cents: 1400, total_cents: 4200, vat_pct: 7, tax_included: true, service_date: '2026-07-06' },
    { title: 'Führung', detail: null, quantity: 1, unit_price_cents: 9000, total_cents: 9000, vat_pct: 19, tax_included: true, service_date: '2026-07-07' },
    { title: 'Katalog', detail: null, quantity: 1, unit_price_cents: 2990, total_cents: 2990, vat_pct: 7, tax_included: false, service_date: '2026-07-06' },
  ],
  refers_to: null,
  small_amount: false,
};

const cents = (s: string) => Math.round(Number(s) * 100);
const all = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<ram:${tag}[^>]*>([^<]*)</ram:${tag}>`, 'g'))].map((m) => m[1]!);
const one = (xml: string, tag: string) => {
  const v = all(xml, tag);
  assert.equal(v.length, 1, `${tag} once`);
  return cents(v[0]!);
};

function checkArithmetic(xml: string) {
  const lines = all(xml, 'LineTotalAmount').map(cents);
  const lineTotal = lines.pop()!; // the header's LineTotalAmount comes last
  assert.equal(lines.reduce((s, x) => s + x, 0), lineTotal, 'BR-CO-10');
  const basis = one(xml, 'TaxBasisTotalAmount');
  const vat = one(xml, 'TaxTotalAmount');
  const grand = one(xml, 'GrandTotalAmount');
  assert.equal(basis, lineTotal, 'BR-CO-13 (no allowances or charges)');
  assert.equal(basis + vat, grand, 'BR-CO-15');
  assert.equal(all(xml, 'CalculatedAmount').map(cents).reduce((s, x) => s + x, 0), vat, 'BR-CO-14');
  assert.equal(all(xml, 'BasisAmount').map(cents).reduce((s, x) => s + x, 0), basis, 'BR-S-08 (sum over rates)');
  assert.equal(one(xml, 'DuePayableAmount'), grand - one(xml, 'TotalPrepaidAmount'), 'BR-CO-16');
}

test('an invoice becomes valid CII: the library accepts it, the sums add up, text is escaped', async () => {
  validateEInvoiceData(eInvoiceData(invoice)); // throws on a violation
  const xml = (await renderEInvoiceXml(invoice)).toString('utf8');
  assert.match(xml, /^<\?xml version="1.0" encoding="utf-8"\?>\s*<rsm:CrossIndustryInvoice /);
  assert.ok(xml.includes('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>'), 'BT-24 EN 16931');
  assert.ok(xml.includes('<ram:TypeCode>380</ram:TypeCode>'));
  assert.ok(xml.includes('<ram:ID schemeID="VA">DE123456789</ram:ID>'), 'BT-31 seller VAT ID');
  assert.ok(xml.includes('Erwachsene &amp; Kinder &lt;Gruppe&gt;'));
  assert.equal(one(xml, 'GrandTotalAmount'), 4200 + 9000 + 3199);
  assert.equal(one(xml, 'DuePayableAmount'), 0, 'paid with the order');
  checkArithmetic(xml);
});

test('a credit note is type 381 and references its invoice (BG-3)', async () => {
  const credit: IssuedInvoice = { ...invoice, kind: 'credit_note', number: 'INV-000018', lines: invoice.lines.slice(1, 2), refers_to: { number: 'INV-000017', issued_at: invoice.issued_at } };
  const xml = (await renderEInvoiceXml(credit)).toString('utf8');
  assert.ok(xml.includes('<ram:TypeCode>381</ram:TypeCode>'));
  assert.match(xml, /<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>INV-000017<\/ram:IssuerAssignedID>\s*<ram:FormattedIssueDateTime>\s*<qdt:DateTimeString format="102">20260701<\/qdt:DateTimeString>/);
  // Where the CII schema wants it: after the monetary summation, inside the settlement.
  assert.ok(xml.indexOf('</ram:SpecifiedTradeSettlementHeaderMonetarySummation>') < xml.indexOf('<ram:InvoiceReferencedDocument>'));
  assert.ok(xml.indexOf('<ram:InvoiceReferencedDocument>') < xml.indexOf('</ram:ApplicableHeaderTradeSettlement>'));
  checkArithmetic(xml);
});

test('an anonymous order and a tax number instead of a VAT ID are valid too', async () => {
  const xml = (await renderEInvoiceXml({ ...invoice, buyer: null, seller: { ...DEMO_ISSUER, vatId: null, taxNumber: '27/123/45678' } })).toString('utf8');
  assert.ok(xml.includes('<ram:ID schemeID="FC">27/123/45678</ram:ID>'), 'BT-32 tax number');
  assert.ok(xml.includes('Privatkunde'));
});

test('the library refuses data that breaks EN 16931 (a check that passed anything would fail here)', async () => {
  await assert.rejects(renderEInvoiceXml({ ...invoice, seller: { ...DEMO_ISSUER, country: 'Germany' } }), /validation failed/);
  await assert.rejects(renderEInvoiceXml({ ...invoice, currency: 'euro' }), /validation failed/);
  assert.throws(() => validateEInvoiceData({ ...eInvoiceData(invoice), 'ubl:Invoice': { ...(eInvoiceData(invoice) as any)['ubl:Invoice'], 'cbc:ID': undefined } } as any), /validation failed/);
});

test('an invoice to be paid by transfer: due date (BT-9), all of it due, nothing prepaid', async () => {
  const byTransfer: IssuedInvoice = { ...invoice, due_date: '2026-07-15' };
  validateEInvoiceData(eInvoiceData(byTransfer));
  const xml = (await renderEInvoiceXml(byTransfer)).toString('utf8');
  assert.match(xml, /<ram:DueDateDateTime>\s*<udt:DateTimeString format="102">20260715<\/udt:DateTimeString>\s*<\/ram:DueDateDateTime>/);
  assert.equal(one(xml, 'DuePayableAmount'), 4200 + 9000 + 3199);
  assert.equal(one(xml, 'TotalPrepaidAmount'), 0);
  checkArithmetic(xml);
  // A credit note never carries one, even if handed a due date.
  const credit = (await renderEInvoiceXml({ ...byTransfer, kind: 'credit_note', refers_to: { number: 'INV-000017', issued_at: invoice.issued_at } })).toString('utf8');
  assert.doesNotMatch(credit, /DueDateDateTime/);
});
