// Documents end to end through the API with the worker running in-process: finalize → ticket and
// invoice PDFs; uploads scanned (EICAR → rejected → 410, clean → available → the same bytes);
// every state and its status code (202 processing, 200, 410 rejected/expired, 404); retention by
// moving the clock; a cancellation re-renders the tickets with the void barcode.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { EICAR_TEST_FILE } from '../../src/scan/builtin.ts';
import { purgeExpiredDocuments } from '../../src/domain/documents/purgeDocuments.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { testApp } from '../helpers/app.ts';
import { catalogue, documentStatus, finalizedOrder, pngBytes, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const t = await testApp();
const db = t.database.db;
let worker: Worker;
after(async () => {
  await worker?.stop();
  await t.close();
});
let c: Catalogue, reseller: string;

before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t);
});

const get = (url: string, token = reseller) => t.request({ method: 'GET', url: `/api/v4${url}`, token });
const upload = (body: object, token = reseller) => t.request({ method: 'POST', url: '/api/v4/documents', token, payload: body });
const b64 = (b: Buffer) => b.toString('base64');
const available = (id: number) => waitFor(`document ${id} available`, async () => (await documentStatus(db, id)) === 'available');

describe('generated documents', () => {
  test('finalizing an order produces its ticket and invoice PDFs in the background', async () => {
    const o = await finalizedOrder(t, reseller, c);
    assert.deepEqual(o.documents.map((d) => d.kind).sort(), ['invoice', 'ticket']);
    for (const d of o.documents) {
      assert.match(d.filename, /\.pdf$/);
      await available(d.id);
      const res = await get(`/documents/${d.id}/download`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/pdf');
      // Invoices are renamed after their number once issued: the metadata has the current name.
      const meta = await get(`/documents/${d.id}`);
      assert.equal(meta.statusCode, 200, meta.body);
      const name = meta.json().document.filename as string;
      assert.equal(res.headers['content-disposition'], `attachment; filename="${name}"; filename*=UTF-8''${name}`);
      assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
      const head = await t.request({ method: 'HEAD', url: `/api/v4/documents/${d.id}/download`, token: reseller });
      assert.equal(head.statusCode, 200);
      assert.equal(head.rawPayload.length, 0);
      assert.equal(head.headers['content-length'], String(res.rawPayload.length));
    }
    const order = (await get(`/orders/${o.id}`)).json().order;
    // The issued invoice brought its e-invoice (EN 16931 XML) along.
    assert.deepEqual(order.documents.map((d: { kind: string }) => d.kind).sort(), ['e_invoice', 'invoice', 'ticket']);
    for (const d of order.documents) await available(d.id);
    const inv = (await get(`/documents?order_id=${o.id}&kind=invoice`)).json();
    assert.equal(inv.meta.total_count, 1);
    assert.match(inv.documents[0].invoice_number, /^INV-\d{6}$/);
    assert.equal(inv.documents[0].sha256.length, 64);
  });

  test('a tour booking gets a confirmation PDF; finalizing again adds nothing', async () => {
    const o = await finalizedOrder(t, reseller, c, [
      { type: 'Tour', attributes: { id: c.tourId, start_time: c.at(660), language_id: c.langId, quantity: 5 } },
    ]);
    assert.deepEqual(o.documents.map((d) => d.kind).sort(), ['confirmation', 'invoice']);
    const again = await t.request({ method: 'POST', url: `/api/v4/orders/${o.id}/finalize`, token: reseller });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json().order.documents.map((d: { id: number }) => d.id).sort(), o.documents.map((d) => d.id).sort());
    for (const d of o.documents) await available(d.id);
  });

  test('a cancellation re-renders the tickets (202 until then) with the void barcodes; the invoice stays', async () => {
    const o = await finalizedOrder(t, reseller, c);
    const ticket = o.documents.find((d) => d.kind === 'ticket')!;
    const invoice = o.documents.find((d) => d.kind === 'invoice')!;
    await available(ticket.id);
    await available(invoice.id);
    const before = await db.execute<{ sha256: string; generation: number }>(sql`select sha256, generation from documents where id = ${ticket.id}`);
    const invBefore = (await get(`/documents/${invoice.id}`)).json().document;
    const res = await t.request({ method: 'POST', url: `/api/v4/orders/${o.id}/cancellations`, token: reseller, payload: {} });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().order.documents.find((d: { id: number }) => d.id === ticket.id).status, 'processing');
    await available(ticket.id);
    const now = await db.execute<{ sha256: string; generation: number }>(sql`select sha256, generation from documents where id = ${ticket.id}`);
    assert.equal(now.rows[0]!.generation, before.rows[0]!.generation + 1);
    assert.notEqual(now.rows[0]!.sha256, before.rows[0]!.sha256, 'the PDF changed (admissions stamped VOID)');
    assert.deepEqual((await get(`/documents/${invoice.id}`)).json().document, invBefore);
  });
});

describe('uploads and the virus scan', () => {
  test('a clean upload answers 202 processing, then is available with the same bytes', async () => {
    const o = await finalizedOrder(t, reseller, c);
    const bytes = pngBytes();
    const res = await upload({ order_id: o.id, filename: 'plan.png', content_type: 'image/png', content_base64: b64(bytes) });
    assert.equal(res.statusCode, 202, res.body);
    const doc = res.json().document;
    assert.deepEqual([doc.kind, doc.status, doc.order_id, doc.byte_size, doc.filename], ['attachment', 'processing', o.id, bytes.length, 'plan.png']);
    assert.equal(doc.sha256, createHash('sha256').update(bytes).digest('hex'));
    await available(doc.id);
    const dl = await get(`/documents/${doc.id}/download`);
    assert.equal(dl.statusCode, 200);
    assert.equal(dl.headers['content-type'], 'image/png');
    assert.ok(dl.rawPayload.equals(bytes));
  });

  test('the EICAR test file is rejected, its bytes wiped, and the download is 410', async () => {
    const o = await finalizedOrder(t, reseller, c);
    const infected = Buffer.concat([Buffer.from('%PDF-1.4\n'), EICAR_TEST_FILE]);
    const res = await upload({ order_id: o.id, filename: 'letter.pdf', content_type: 'application/pdf', content_base64: b64(infected) });
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().document.id;
    await waitFor('rejection', async () => (await documentStatus(db, id)) === 'rejected');
    const dl = await get(`/documents/${id}/download`);
    assert.equal(dl.statusCode, 410);
    assert.equal(dl.json().code, 'GONE');
    const row = await db.execute<{ content: Buffer | null; note: string }>(sql`select content, note from documents where id = ${id}`);
    assert.equal(row.rows[0]!.content, null);
    assert.match(row.rows[0]!.note, /Eicar/i);
    assert.equal((await get(`/documents/${id}`)).json().document.status, 'rejected');
  });
});

describe('states and retention', () => {
  test('processing answers 202 with Retry-After and the error shape; expired answers 410 and is purged', async () => {
    const o = await finalizedOrder(t, reseller, c);
    // A document whose job has not run yet: the worker cannot see this row (no job was queued).
    const now = t.clock.now();
    const [row] = (await db.execute<{ id: number }>(sql`insert into documents (kind, order_id, account_id, filename, content_type, status, created_at, updated_at, available_until)
      select 'attachment', id, account_id, 'x.pdf', 'application/pdf', 'processing', ${now}, ${now}, ${new Date(now.getTime() + 86_400_000)} from orders where id = ${o.id}
      returning id`)).rows;
    const res = await get(`/documents/${row!.id}/download`);
    assert.equal(res.statusCode, 202);
    assert.equal(res.headers['retry-after'], '2');
    assert.deepEqual([res.json().error, res.json().code], ['document is being processed', 'DOCUMENT_PROCESSING']);

    const ticket = o.documents.find((d) => d.kind === 'ticket')!;
    await available(ticket.id);
    // Every render finished before the clock jumps: a document that finished between the two
    // purges below would be purged by the second (the invoice can take longer than the ticket).
    await waitFor('no document rendering', async () =>
      (await db.execute<{ n: number }>(sql`select count(*)::int n from documents where status = 'processing' and id <> ${row!.id}`)).rows[0]!.n === 0);
    assert.equal((await get(`/documents/${ticket.id}/download`)).statusCode, 200);
    t.clock.advance((t.config.documentRetentionDays + 1) * 86_400_000);
    try {
      const gone = await get(`/documents/${ticket.id}/download`);
      assert.equal(gone.statusCode, 410);
      assert.equal(gone.json().error, 'document is no longer available');
      assert.equal((await get(`/documents/${ticket.id}`)).json().document.status, 'expired');
      assert.ok((await get(`/documents?status=expired&order_id=${o.id}`)).json().meta.total_count >= 2);
      const purged = await purgeExpiredDocuments(systemCtx({ db, clock: t.clock, config: t.config }));
      assert.ok(purged >= 2);
      const r = await db.execute<{ content: Buffer | null; status: string }>(sql`select content, status from documents where id = ${ticket.id}`);
      assert.deepEqual([r.rows[0]!.content, r.rows[0]!.status], [null, 'expired']);
      const left = await db.execute(sql`select id, kind, status, created_at, updated_at, available_until from documents
        where purged_at is null and available_until <= ${t.clock.now()}`);
      assert.equal(await purgeExpiredDocuments(systemCtx({ db, clock: t.clock, config: t.config })), 0, `a second purge changes nothing; left: ${JSON.stringify(left.rows)}`);
    } finally {
      t.clock.advance(-(t.config.documentRetentionDays + 1) * 86_400_000);
    }
  });
});
