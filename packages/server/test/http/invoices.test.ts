// Invoices, credit notes and e-invoices end to end (API → job → PDF/XML), read back as a person
// and a machine would: pdftotext finds the fields § 14 UStG requires in the customer's language;
// cancelling an item issues a credit note from the same number sequence that names the invoice,
// while the invoice's bytes never change; each is also an EN 16931 XML; missing issuer settings
// refuse invoices naming the variables, without using a number; hostile names and a 200-admission
// order still give readable PDFs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import { hasPdfToText, PDFTOTEXT_MISSING, pdfPages, squash } from '../helpers/pdftext.ts';
import { catalogue, documentStatus, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const t = await testApp();
const db = t.database.db;
let worker: Worker;
let c: Catalogue, reseller: string;
before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t);
});
after(async () => {
  await worker?.stop();
  await t.close();
});

type Doc = { id: number; kind: string; status: string; filename: string };
const get = (app: TestApp, url: string, token: string) => app.request({ method: 'GET', url: `/api/v4${url}`, token });

async function order(app: TestApp, token: string, customer: object | null, items: object[]) {
  const res = await app.request({ method: 'POST', url: '/api/v4/orders', token, payload: { finalize: true, ...(customer ? { customer } : {}), items } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().order as { id: number; items: Array<{ id: number }>; documents: Doc[] };
}
/** Waits (polling the database, not the rate-limited API) until the order's documents of `kinds` exist and none is processing. */
async function settled(app: TestApp, _token: string, orderId: number, kinds: string[]): Promise<Doc[]> {
  return waitFor(`documents ${kinds} of order ${orderId}`, async () => {
    const r = await app.database.db.execute<Doc>(sql`select id, kind, status, filename from documents where order_id = ${orderId} order by id`);
    const docs = r.rows;
    const ok = kinds.every((k) => docs.some((d) => d.kind === k)) && docs.every((d) => d.status !== 'processing');
    return ok ? docs : null;
  }, 60_000);
}
const bytes = async (app: TestApp, token: string, id: number) => (await get(app, `/documents/${id}/download`, token)).rawPayload;
const text = (pdf: Buffer) => squash(pdfPages(pdf)!.join('\n')).replace(/ %/g, '%');
const ticket = (q = 2, min = 630) => ({ type: 'Ticket', attributes: { id: c.ticketId, quantity: q, time: c.at(min) } });
const erika = { name: 'Erika', surname: 'Mustermann', email: 'erika@example.com', locale: 'de', street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' };

describe('invoices', () => {
  test('a German customer gets a German invoice with every § 14 field, and its e-invoice', async (tt) => {
    if (!hasPdfToText) return tt.skip(PDFTOTEXT_MISSING);
    const o = await order(t, reseller, erika, [ticket(2)]);
    const docs = await settled(t, reseller, o.id, ['ticket', 'invoice', 'e_invoice']);
    const inv = docs.find((d) => d.kind === 'invoice')!;
    const meta = (await get(t, `/documents/${inv.id}`, reseller)).json().document;
    assert.match(meta.invoice_number, /^INV-\d{6}$/);
    assert.equal(meta.filename, `invoice-${meta.invoice_number}.pdf`);
    const s = text(await bytes(t, reseller, inv.id));
    for (const field of ['Rechnung', 'Test Museum gGmbH', 'Teststr. 1', '10115 Berlin', 'USt-IdNr.: DE999999999', 'Rechnungsempfänger', 'Erika Mustermann', 'Hauptstr. 1',
      `Rechnungsnummer ${meta.invoice_number}`, 'Rechnungsdatum:', 'Leistungsdatum:', 'Eintritt regulär 2 14,00 € 7% 26,17 € 28,00 €', 'USt 7% 26,17 € 1,83 € 28,00 €',
      'Summe netto 26,17 €', 'Summe Umsatzsteuer 1,83 €', 'Rechnungsbetrag 28,00 €']) {
      assert.ok(s.includes(field), `missing "${field}" in ${s}`);
    }
    const xml = (await bytes(t, reseller, docs.find((d) => d.kind === 'e_invoice')!.id)).toString('utf8');
    assert.match(xml, /<rsm:CrossIndustryInvoice/);
    assert.ok(xml.includes(`<ram:ID>${meta.invoice_number}</ram:ID>`));
    assert.match(xml, /<ram:TypeCode>380<\/ram:TypeCode>/);
    assert.match(xml, /<ram:GrandTotalAmount>28.00<\/ram:GrandTotalAmount>/);
    // The ticket speaks German too, and names the slot as people write it.
    const tk = text(await bytes(t, reseller, docs.find((d) => d.kind === 'ticket')!.id));
    assert.match(tk, /Eintritt regulär Zeitfenster-Ticket \S+\., \d+\. \S+ \d{4}, 10:30–11:00/);
  });

  test('an English customer gets an English invoice', async (tt) => {
    if (!hasPdfToText) return tt.skip(PDFTOTEXT_MISSING);
    const o = await order(t, reseller, { ...erika, email: 'en@example.com', locale: 'en' }, [ticket(1)]);
    const docs = await settled(t, reseller, o.id, ['invoice', 'e_invoice']);
    const s = text(await bytes(t, reseller, docs.find((d) => d.kind === 'invoice')!.id));
    for (const field of ['Invoice no. INV-', 'VAT ID: DE999999999', 'Bill to', 'Issue date:', 'Date of service:', 'Admission regular 1 €14.00 7% €13.08 €14.00', 'VAT 7% €13.08 €0.92 €14.00', 'Amount due €14.00']) {
      assert.ok(s.includes(field), `missing "${field}" in ${s}`);
    }
  });

  test('cancelling an item issues a credit note with the next number that names the invoice; the invoice never changes', async (tt) => {
    if (!hasPdfToText) return tt.skip(PDFTOTEXT_MISSING);
    const o = await order(t, reseller, erika, [ticket(2, 630), ticket(1, 660)]);
    const docs = await settled(t, reseller, o.id, ['invoice', 'e_invoice']);
    const inv = docs.find((d) => d.kind === 'invoice')!;
    const invMeta = (await get(t, `/documents/${inv.id}`, reseller)).json().document;
    const before = await bytes(t, reseller, inv.id);
    const res = await t.request({ method: 'POST', url: `/api/v4/orders/${o.id}/cancellations`, token: reseller, payload: { item_ids: [o.items[1]!.id] } });
    assert.equal(res.statusCode, 200, res.body);
    const after2 = await settled(t, reseller, o.id, ['credit_note']);
    assert.equal(after2.filter((d) => d.kind === 'e_invoice').length, 2, 'the credit note has its e-invoice too');
    const cn = (await get(t, `/documents/${after2.find((d) => d.kind === 'credit_note')!.id}`, reseller)).json().document;
    assert.ok(cn.invoice_number > invMeta.invoice_number, 'a number of its own, from the same sequence');
    const s = text(await bytes(t, reseller, cn.id));
    assert.ok(s.includes(`Nummer ${cn.invoice_number}`), s);
    assert.match(s, new RegExp(`Zur Rechnung Nr\\. ${invMeta.invoice_number} vom \\d\\d\\.\\d\\d\\.\\d{4}`));
    assert.ok(s.includes('Gutschriftsbetrag 14,00 €'), s);
    assert.ok(!s.includes('28,00 €'), 'only the cancelled item is credited');
    // The issued invoice: same bytes, same metadata, still both items.
    assert.ok((await bytes(t, reseller, inv.id)).equals(before));
    assert.deepEqual((await get(t, `/documents/${inv.id}`, reseller)).json().document, invMeta);
    const xml = (await bytes(t, reseller, after2.find((d) => d.kind === 'e_invoice' && d.filename.startsWith('credit-note'))!.id)).toString();
    assert.match(xml, /<ram:TypeCode>381<\/ram:TypeCode>/);
    assert.ok(xml.includes(`<ram:IssuerAssignedID>${invMeta.invoice_number}</ram:IssuerAssignedID>`), 'the e-invoice references the invoice (BT-25)');
    // The order answer lists them all with their kinds.
    const kinds = (await get(t, `/orders/${o.id}`, reseller)).json().order.documents.map((d: Doc) => d.kind).sort();
    assert.deepEqual(kinds, ['credit_note', 'e_invoice', 'e_invoice', 'invoice', 'ticket']);
  });

  test('hostile names and an order of 200 admissions still render, paged, never a broken PDF', async (tt) => {
    if (!hasPdfToText) return tt.skip(PDFTOTEXT_MISSING);
    const name = `שרה 😀 ${'Ä'.repeat(240)}`;
    const o = await order(t, reseller, { ...erika, email: 'long@example.com', name, surname: `مريم ${'ß'.repeat(240)}` }, [ticket(100, 720), ticket(100, 750)]);
    const docs = await settled(t, reseller, o.id, ['ticket', 'invoice', 'e_invoice']);
    assert.ok(docs.every((d) => d.status === 'available'), JSON.stringify(docs));
    const tickets = pdfPages(await bytes(t, reseller, docs.find((d) => d.kind === 'ticket')!.id))!;
    assert.equal(tickets.length, 200, 'one page per admission');
    assert.match(squash(tickets[199]!), /Eintritt 200 von 200/);
    const s = text(await bytes(t, reseller, docs.find((d) => d.kind === 'invoice')!.id));
    assert.ok(/[\u05d0-\u05ea]{3}/.test(s) && /[\u0600-\u06ff]{4}/.test(s), 'right-to-left names are printed');
    assert.ok(s.includes('Rechnungsbetrag 2.800,00 €'), s.slice(-400));
  });
});

describe('without issuer settings', () => {
  test('invoices are refused naming the missing settings; no number is used; tickets still work', async () => {
    const bare = await testApp({ env: { ATRIUM_ISSUER_NAME: '', ATRIUM_ISSUER_VAT_ID: '', ATRIUM_ISSUER_STREET: '' } });
    const w = await testWorker(bare);
    try {
      const bc = await catalogue(bare.database.db);
      const tok = await bare.token({ class: 'reseller' });
      const res = await bare.request({ method: 'POST', url: '/api/v4/orders', token: tok,
        payload: { finalize: true, items: [{ type: 'Ticket', attributes: { id: bc.ticketId, quantity: 1, time: bc.at(630) } }] } });
      assert.equal(res.statusCode, 201, res.body);
      const docs = res.json().order.documents as Doc[];
      const inv = docs.find((d) => d.kind === 'invoice')!;
      await waitFor('the invoice refused', async () => (await documentStatus(bare.database.db, inv.id)) === 'rejected');
      const meta = (await get(bare, `/documents/${inv.id}`, tok)).json().document;
      assert.equal(meta.status, 'rejected');
      assert.equal(meta.invoice_number, null);
      assert.match(meta.rejection_reason, /ATRIUM_ISSUER_NAME, ATRIUM_ISSUER_STREET, ATRIUM_ISSUER_VAT_ID or ATRIUM_ISSUER_TAX_NUMBER/);
      assert.doesNotMatch(meta.rejection_reason, /ATRIUM_ISSUER_ZIP|ATRIUM_ISSUER_CITY/, 'only what is missing');
      const dl = await get(bare, `/documents/${inv.id}/download`, tok);
      assert.equal(dl.statusCode, 410);
      assert.match(dl.json().error, /ATRIUM_ISSUER_NAME/);
      const counter = await bare.database.db.execute<{ n: number }>(sql`select count(*)::int n from invoice_counter`);
      assert.equal(counter.rows[0]!.n, 0, 'no number taken');
      await waitFor('the ticket', async () => (await documentStatus(bare.database.db, docs.find((d) => d.kind === 'ticket')!.id)) === 'available');
    } finally {
      await w.stop();
      await bare.close();
    }
  });
});
