// Who may see, download and upload which document, and how bad uploads are refused (4xx in the
// spec shape, nothing stored, no job queued). No worker runs here: documents stay "processing".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { catalogue, finalizedOrder, pngBytes, queuedJobs, type Catalogue } from '../jobs/support.ts';

const t = await testApp({ env: { ATRIUM_UPLOAD_MAX_BYTES: '1000' } });
after(() => t.close());
const db = t.database.db;
let c: Catalogue, owner: string, stranger: string;
let order: Awaited<ReturnType<typeof finalizedOrder>>;
let ticketDoc: number;

before(async () => {
  c = await catalogue(db);
  owner = await t.token({ class: 'reseller' });
  stranger = await t.token({ class: 'reseller' });
  order = await finalizedOrder(t, owner, c);
  ticketDoc = order.documents.find((d) => d.kind === 'ticket')!.id;
});

const req = (method: 'GET' | 'HEAD' | 'POST', url: string, token?: string, payload?: object) =>
  t.request({ method, url: `/api/v4${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
const body = (o: object = {}) => ({ order_id: order.id, filename: 'a.png', content_type: 'image/png', content_base64: pngBytes().toString('base64'), ...o });

describe('document access', () => {
  test('anonymous 401, public token 403, user without documents rights 403', async () => {
    const pub = await t.token({ class: 'public' });
    const noRight = await t.token({ class: 'user', rights: ['orders:read'] });
    for (const url of [`/documents/${ticketDoc}`, `/documents/${ticketDoc}/download`, '/documents']) {
      assert.equal((await req('GET', url)).statusCode, 401, url);
      assert.equal((await req('GET', url, pub)).statusCode, 403, url);
      assert.equal((await req('GET', url, noRight)).statusCode, 403, url);
    }
    assert.equal((await req('POST', '/documents', noRight, body())).statusCode, 403);
    const readOnly = await t.token({ class: 'user', rights: ['documents:read'] });
    assert.equal((await req('POST', '/documents', readOnly, body())).statusCode, 403);
  });

  test("another reseller's document is a 404 everywhere, and not listed", async () => {
    for (const url of [`/documents/${ticketDoc}`, `/documents/${ticketDoc}/download`]) {
      const res = await req('GET', url, stranger);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error, 'document not found');
    }
    assert.equal((await req('GET', '/documents', stranger)).json().meta.total_count, 0);
    assert.equal((await req('POST', '/documents', stranger, body())).statusCode, 404, "no upload to another's order");
    assert.equal((await req('GET', '/documents/999999/download', owner)).statusCode, 404);
  });

  test('users see documents of their museums only; the owner sees its own (202 while processing)', async () => {
    const inScope = await t.token({ class: 'user', rights: ['documents:read'], museumIds: [c.museumId] });
    const outOfScope = await t.token({ class: 'user', rights: ['documents:read'], museumIds: [c.otherMuseumId] });
    assert.equal((await req('GET', `/documents/${ticketDoc}`, inScope)).statusCode, 200);
    assert.equal((await req('GET', `/documents/${ticketDoc}`, outOfScope)).statusCode, 404);
    assert.equal((await req('GET', `/documents/${ticketDoc}/download`, outOfScope)).statusCode, 404);
    for (const token of [owner, inScope]) {
      const dl = await req('GET', `/documents/${ticketDoc}/download`, token);
      assert.equal(dl.statusCode, 202);
      assert.equal(dl.json().code, 'DOCUMENT_PROCESSING');
      const head = await req('HEAD', `/documents/${ticketDoc}/download`, token);
      assert.equal(head.statusCode, 202);
      assert.equal(head.headers['retry-after'], '2');
    }
    const list = (await req('GET', `/documents?order_id=${order.id}&status=processing`, owner)).json();
    assert.deepEqual(list.documents.map((d: { kind: string }) => d.kind).sort(), ['invoice', 'ticket']);
    assert.equal((await req('GET', '/documents?status=bogus', owner)).statusCode, 422);
    const writer = await t.token({ class: 'user', rights: ['documents:write'], museumIds: [c.museumId] });
    assert.equal((await req('POST', '/documents', writer, body())).statusCode, 202);
    const outWriter = await t.token({ class: 'user', rights: ['documents:write'], museumIds: [c.otherMuseumId] });
    assert.equal((await req('POST', '/documents', outWriter, body())).statusCode, 404);
  });
});

describe('upload validation', () => {
  test('bad uploads are 4xx with the spec shape; nothing is stored and no job queued', async () => {
    const docs = async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from documents`)).rows[0]!.n;
    const [docsBefore, jobsBefore] = [await docs(), await queuedJobs(db)];
    const cases: Array<[object, number, RegExp]> = [
      [{ order_id: undefined }, 422, /exactly one of order_id and request_id/],
      [{ request_id: 1 }, 422, /exactly one of order_id and request_id/],
      [{ content_type: 'text/html' }, 422, /content_type must be one of application\/pdf, image\/png, image\/jpeg/],
      [{ content_base64: 'not base64!' }, 422, /not valid base64/],
      [{ content_base64: 'QUJD=' }, 422, /not valid base64/],
      [{ content_base64: Buffer.alloc(1001, 1).toString('base64') }, 413, /larger than 1000 bytes/],
      [{ filename: '' }, 422, /filename/],
      [{ order_id: 0 }, 422, /order_id/],
    ];
    for (const [o, status, message] of cases) {
      const res = await req('POST', '/documents', owner, body(o));
      assert.equal(res.statusCode, status, `${JSON.stringify(o).slice(0, 60)}: ${res.body}`);
      const b = res.json();
      assert.match([b.error, ...(b.errors ?? [])].join(' '), message);
      assert.equal(typeof b.request_id, 'string');
    }
    assert.equal(await docs(), docsBefore);
    assert.equal(await queuedJobs(db), jobsBefore);
  });

  test('filenames are sanitised; the body may be wrapped; an unknown request is 404', async () => {
    const res = await req('POST', '/documents', owner, { document: body({ filename: '../../etc/"pass;wd\u0007.png', content_type: 'IMAGE/PNG' }) });
    assert.equal(res.statusCode, 202, res.body);
    assert.deepEqual([res.json().document.filename, res.json().document.content_type], ['_pass_wd_.png', 'image/png']);
    const dotted = await req('POST', '/documents', owner, body({ filename: '...' }));
    assert.equal(dotted.json().document.filename, 'upload.png'); // the extension follows the content (upload-names.test.ts)
    assert.equal((await req('POST', '/documents', owner, body({ order_id: undefined, request_id: 2_000_000 }))).statusCode, 404);
  });

  test('the upload route accepts a base64 body larger than the general JSON limit', async () => {
    const big = await testApp({ env: { ATRIUM_BODY_LIMIT: '2048', ATRIUM_UPLOAD_MAX_BYTES: '100000' } });
    try {
      const cat = await catalogue(big.database.db);
      const tok = await big.token({ class: 'reseller' });
      const o = await finalizedOrder(big, tok, cat);
      const bytes = Buffer.concat([pngBytes(), Buffer.alloc(90_000, 3)]);
      const res = await big.request({ method: 'POST', url: '/api/v4/documents', token: tok,
        payload: { order_id: o.id, filename: 'big.png', content_type: 'image/png', content_base64: bytes.toString('base64') } });
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.json().document.byte_size, bytes.length);
      const other = await big.request({ method: 'POST', url: '/api/v4/orders', token: tok, payload: { comment: 'x'.repeat(5000), finalize: false, items: [] } });
      assert.equal(other.statusCode, 413, 'other routes keep the general limit');
    } finally {
      await big.close();
    }
  });
});
